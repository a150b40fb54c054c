// Preloaded (node --require) into a child process whose memory a test bounds: as the process
// exits, it writes its peak resident set size in bytes to the file LISTKIT_PEAK_RSS_FILE names.
const { writeFileSync } = require('node:fs');

process.on('exit', () => {
  const file = process.env.LISTKIT_PEAK_RSS_FILE;
  if (file) writeFileSync(file, String(process.resourceUsage().maxRSS * 1024));
});
