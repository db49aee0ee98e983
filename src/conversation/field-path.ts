// Field paths as users read them in error messages: `messages[0].content`, `chat[2].match.turn`.

export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  return path.reduce<string>((out, key) => (typeof key === 'number' ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key)), '');
}
