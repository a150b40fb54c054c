// The light / dark / system theme: a select in the header, remembered in localStorage. "System"
// removes the override, so the operating system's preference applies (see styles.css).
const STORAGE_KEY = 'listkit-playground-theme';
type Theme = 'system' | 'light' | 'dark';

function apply(theme: Theme) {
  if (theme === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
}

function stored(): Theme {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return value === 'light' || value === 'dark' ? value : 'system';
  } catch {
    return 'system';
  }
}

export function initThemeToggle(select: HTMLSelectElement): void {
  const theme = stored();
  select.value = theme;
  apply(theme);
  select.addEventListener('change', () => {
    const next = select.value as Theme;
    apply(next);
    try {
      if (next === 'system') localStorage.removeItem(STORAGE_KEY);
      else localStorage.setItem(STORAGE_KEY, next);
    } catch {
      // Storage may be disabled; the choice still holds for this page.
    }
  });
}
