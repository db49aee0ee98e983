// The package's own model catalog (fixtures/models.yaml), which a fixtures directory's models add to
// (or, with `catalog: replace`, replace): read once, from the build's snapshot when the file is as shipped.
import { readFileSync } from 'node:fs';
import { yaml } from '../conversation/yaml.js';
import { packageFile } from '../package-root.js';
import type { FixturesFile, ModelSpec } from './schema.js';
import { shippedData } from './shipped-yaml.js';

let models: ModelSpec[] | undefined;

export function defaultCatalog(): ModelSpec[] {
  if (models) return models;
  const text = readFileSync(packageFile('fixtures', 'models.yaml'), 'utf8');
  return (models = ((shippedData(text) ?? yaml().parse(text)) as FixturesFile).models ?? []);
}
