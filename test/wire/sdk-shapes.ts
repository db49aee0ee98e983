// Reads the installed SDKs' own type files, so that the variant tables are checked against what a
// dependency bump brings: the keys of a params interface, and the tags of a union's members.
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const programs = new Map<string, { program: ts.Program; checker: ts.TypeChecker; file: ts.SourceFile }>();

function open(typesFile: string) {
  const path = fileURLToPath(new URL(`../../node_modules/${typesFile}`, import.meta.url));
  let entry = programs.get(path);
  if (!entry) {
    const program = ts.createProgram([path], { noEmit: true, skipLibCheck: true, strict: true, types: [] });
    const file = program.getSourceFile(path);
    if (!file) throw new Error(`no types at ${path}`);
    entry = { program, checker: program.getTypeChecker(), file };
    programs.set(path, entry);
  }
  return entry;
}

/** The type a dotted name (`ResponseInputItem`, `ChatCompletionContentPart.File`) names in a file. */
function typeNamed(typesFile: string, name: string): { checker: ts.TypeChecker; type: ts.Type } {
  const { checker, file } = open(typesFile);
  const moduleSymbol = checker.getSymbolAtLocation(file);
  if (!moduleSymbol) throw new Error(`${typesFile} is not a module`);
  let symbols = checker.getExportsOfModule(moduleSymbol);
  let found: ts.Symbol | undefined;
  for (const part of name.split('.')) {
    found = symbols.find((s) => s.name === part);
    if (!found) throw new Error(`${typesFile} exports no ${name}`);
    symbols = checker.getExportsOfModule(found.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(found) : found);
  }
  const symbol = found!.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(found!) : found!;
  return { checker, type: checker.getDeclaredTypeOfSymbol(symbol) };
}

/** The property names of an interface (with those it extends). */
export function keysOf(typesFile: string, name: string): string[] {
  const { checker, type } = typeNamed(typesFile, name);
  return checker.getPropertiesOfType(type).map((p) => p.name).sort();
}

/** The members of a union, looking through arrays and nested unions. */
function members(checker: ts.TypeChecker, type: ts.Type): ts.Type[] {
  if (type.isUnion()) return type.types.flatMap((t) => members(checker, t));
  if (checker.isArrayType(type)) return checker.getTypeArguments(type as ts.TypeReference).flatMap((t) => members(checker, t));
  return [type];
}

/**
 * The string values a union's members carry in their `tag` property (`type`, `role`); with
 * `property`, the union is that property's type in the named interface (`content` of a block).
 */
export function tagsOf(typesFile: string, name: string, tag: string, property?: string): string[] {
  const named = typeNamed(typesFile, name);
  const { checker } = named;
  let type = named.type;
  if (property) {
    const symbol = checker.getPropertyOfType(type, property);
    if (!symbol) throw new Error(`${name} has no ${property}`);
    type = checker.getTypeOfSymbol(symbol);
  }
  const tags = new Set<string>();
  for (const member of members(checker, checker.getNonNullableType(type))) {
    const symbol = checker.getPropertyOfType(member, tag);
    if (!symbol) continue;
    const valueType = checker.getNonNullableType(checker.getTypeOfSymbol(symbol));
    for (const value of members(checker, valueType)) {
      if (value.isStringLiteral()) tags.add(value.value);
    }
  }
  return [...tags].sort();
}

/** What the SDK declares that a variant table has no row for (an empty declaration is a broken reading). */
export function missingFrom(declared: readonly string[], table: object): string[] {
  if (declared.length === 0) throw new Error('the SDK types declared nothing: the reading of its type files is broken');
  return declared.filter((name) => !(name in table));
}
