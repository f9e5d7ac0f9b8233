// Registries assembled from one table per family (scalar functions, dialect rules): the
// tables stay plain data (name → rule) that tools can list, and a name defined twice is a bug.
export function assembleFamilies<T>(families: Readonly<Record<string, Record<string, T>>>, what: string): Record<string, T> {
  const all: Record<string, T> = {};
  for (const [family, table] of Object.entries(families)) {
    for (const [name, rule] of Object.entries(table)) {
      if (Object.hasOwn(all, name)) throw new Error(`${what} ${name} is defined twice (again in the ${family} family)`);
      all[name] = rule;
    }
  }
  return all;
}
