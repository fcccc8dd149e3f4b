// Lints spec/schema.graphql: it must parse, build and validate as a schema,
// and every type, field and argument must say what it means (a description).
import { assertValidSchema, isObjectType } from 'graphql';
import { loadSpecSchema } from '../spec/graphql.ts';

const schema = await loadSpecSchema();
assertValidSchema(schema);
const undocumented: string[] = [];
for (const type of Object.values(schema.getTypeMap())) {
  if (type.name.startsWith('__') || !isObjectType(type)) continue;
  if (!type.description) undocumented.push(type.name);
  for (const field of Object.values(type.getFields())) {
    if (!field.description) undocumented.push(`${type.name}.${field.name}`);
    for (const arg of field.args) if (!arg.description) undocumented.push(`${type.name}.${field.name}(${arg.name})`);
  }
}
if (undocumented.length > 0) {
  console.error(`spec/schema.graphql: no description on ${undocumented.join(', ')}`);
  process.exit(1);
}
console.log(`spec/schema.graphql: valid, ${Object.keys(schema.getTypeMap()).filter((n) => !n.startsWith('__')).length} types, every field described`);
