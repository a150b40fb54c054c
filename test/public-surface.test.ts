import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The public surface of both packages, read from their entry points with the TypeScript checker
// (no build needed): every export is documented with an @example, and no exported declaration
// mentions a type of the package that is not itself exported (it would appear in dist/*.d.ts as
// an undocumented, unimportable name).

const root = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));
const ENTRIES = [
  'packages/query/src/index.ts',
  'packages/query/src/sql/index.ts',
  'packages/query/src/re2-wasm.ts',
  'packages/query/src/proto.ts',
  'packages/service/src/index.ts',
  'packages/service/src/schema.ts',
].map(root);
const SOURCES = [root('packages/query/src/'), root('packages/service/src/')];

const program = ts.createProgram(ENTRIES, {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  strict: true,
  skipLibCheck: true,
  noEmit: true,
});
const checker = program.getTypeChecker();

/** Every public export: its name and the declarations it stands for. */
const exported = ENTRIES.flatMap((entry) => {
  const module = checker.getSymbolAtLocation(program.getSourceFile(entry)!)!;
  return checker.getExportsOfModule(module).map((symbol) => {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    return { name: symbol.name, symbol: target, declarations: target.declarations ?? [] };
  });
});
const exportedSymbols = new Set(exported.map((e) => e.symbol));

const relative = (file: string) => file.slice(root('').length);

function hasExample(declaration: ts.Declaration): boolean {
  const documented = ts.isVariableDeclaration(declaration)
    ? declaration.parent.parent
    : declaration;
  return ts.getJSDocTags(documented).some((tag) => tag.tagName.text === 'example');
}

/** The package types a declaration's signature names (bodies and private members aside). */
function namedTypes(declaration: ts.Node): ts.Symbol[] {
  const found: ts.Symbol[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isBlock(node)) return; // a function body is not part of the declaration
    const hidden =
      (ts.isPropertyDeclaration(node) ||
        ts.isMethodDeclaration(node) ||
        ts.isParameter(node) ||
        ts.isConstructorDeclaration(node)) &&
      (node.modifiers?.some((m) => m.kind === ts.SyntaxKind.PrivateKeyword) ||
        (!ts.isParameter(node) &&
          !ts.isConstructorDeclaration(node) &&
          ts.isPrivateIdentifier(node.name)));
    if (hidden) return; // d.ts keeps a private member's name only
    if (ts.isVariableDeclaration(node) && node.initializer && !node.type) return;
    if (ts.isTypeReferenceNode(node) || ts.isExpressionWithTypeArguments(node)) {
      const name = ts.isTypeReferenceNode(node) ? node.typeName : node.expression;
      let symbol = checker.getSymbolAtLocation(name);
      if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
      if (symbol) found.push(symbol);
    }
    ts.forEachChild(node, visit);
  };
  visit(declaration);
  return found;
}

describe('the public surface', () => {
  it('documents every export with an @example', () => {
    const missing = new Set(
      exported
        .filter((e) => e.declarations.length > 0 && !e.declarations.some(hasExample))
        .map((e) => e.name),
    );
    expect([...missing]).toEqual([]);
  });

  it('names no unexported type of the packages in an exported declaration', () => {
    const leaks = new Set<string>();
    for (const { name, declarations } of exported) {
      for (const declaration of declarations) {
        for (const symbol of namedTypes(declaration)) {
          const home = symbol.declarations?.[0]?.getSourceFile().fileName ?? '';
          const inPackages = SOURCES.some((source) => home.startsWith(source));
          // Type parameters and members of the declaration itself are local names.
          const local = symbol.flags & (ts.SymbolFlags.TypeParameter | ts.SymbolFlags.EnumMember);
          if (inPackages && !local && !exportedSymbols.has(symbol)) {
            leaks.add(`${name} names ${symbol.name} (${relative(home)})`);
          }
        }
      }
    }
    expect([...leaks]).toEqual([]);
  });
});
