// Function declarations checked the way the Gemini API checks them, written from the API's
// documentation and its observed 400s (https://ai.google.dev/api/caching#Schema), never from our own
// src/: a bug in the schema compiler must make the fake refuse the request.
const NAME = /^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/;
const TYPES = new Set(['STRING', 'NUMBER', 'INTEGER', 'BOOLEAN', 'ARRAY', 'OBJECT', 'NULL']);
// Fields of the v1beta `Schema` message (§3.1); anything else is "Unknown name … Cannot find field".
const SCHEMA_FIELDS = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'items',
  'minItems',
  'maxItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'propertyOrdering',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'anyOf',
  'default',
  'example',
]);
const MAX_DECLARATIONS = 128;

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** The 400 messages Gemini would give for these tools; empty when it would accept them. */
export function declarationProblems(tools: unknown[]): string[] {
  const problems: string[] = [];
  let count = 0;
  tools.forEach((tool, t) => {
    if (!isObject(tool) || !Array.isArray(tool.functionDeclarations)) return;
    tool.functionDeclarations.forEach((decl: unknown, d: number) => {
      count++;
      const at = `tools[${t}].function_declarations[${d}]`;
      if (!isObject(decl)) return void problems.push(`Invalid value at '${at}': not an object`);
      if (typeof decl.name !== 'string' || !NAME.test(decl.name)) {
        problems.push(
          `Invalid function name ${JSON.stringify(decl.name)} at '${at}.name'. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), underscores (_), dots (.), colons (:), or dashes (-), with a maximum length of 64.`,
        );
      }
      if (decl.parameters !== undefined && decl.parametersJsonSchema !== undefined) {
        problems.push(`'${at}': parameters and parameters_json_schema are mutually exclusive`);
      }
      if (decl.parametersJsonSchema !== undefined && !isObject(decl.parametersJsonSchema) && typeof decl.parametersJsonSchema !== 'boolean') {
        problems.push(`'${at}.parameters_json_schema': schema at top-level must be a boolean or an object`);
      }
      if (decl.parameters !== undefined) schemaProblems(decl.parameters, `${at}.parameters`, problems);
    });
  });
  if (count > MAX_DECLARATIONS) problems.push(`At most ${MAX_DECLARATIONS} function declarations are supported (got ${count})`);
  return problems;
}

function schemaProblems(schema: unknown, at: string, problems: string[]): void {
  if (!isObject(schema))
    return void problems.push(`Invalid value at '${at}' (type.googleapis.com/google.ai.generativelanguage.v1beta.Schema), ${JSON.stringify(schema)}`);
  for (const key of Object.keys(schema)) {
    if (!SCHEMA_FIELDS.has(key)) problems.push(`Invalid JSON payload received. Unknown name "${key}" at '${at}': Cannot find field.`);
  }
  if (schema.type !== undefined) {
    if (Array.isArray(schema.type))
      problems.push(`Invalid JSON payload received. Unknown name "type" at '${at}': Proto field is not repeating, cannot start list.`);
    else if (typeof schema.type !== 'string' || !TYPES.has(schema.type.toUpperCase()))
      problems.push(`Invalid value at '${at}.type', ${JSON.stringify(schema.type)}`);
  }
  const type = typeof schema.type === 'string' ? schema.type.toUpperCase() : undefined;
  if (schema.enum !== undefined && (!Array.isArray(schema.enum) || schema.enum.some((e) => typeof e !== 'string'))) {
    problems.push(`Invalid value at '${at}.enum': enum values must be strings`);
  }
  if (type === 'ARRAY' && schema.items === undefined) problems.push(`'${at}.items': missing field`);
  if (schema.items !== undefined) schemaProblems(schema.items, `${at}.items`, problems);
  if (Array.isArray(schema.anyOf)) schema.anyOf.forEach((s, i) => schemaProblems(s, `${at}.any_of[${i}]`, problems));
  if (schema.properties !== undefined) {
    if (!isObject(schema.properties)) problems.push(`Invalid value at '${at}.properties'`);
    else for (const [name, s] of Object.entries(schema.properties)) schemaProblems(s, `${at}.properties[${JSON.stringify(name)}].value`, problems);
  }
  if (Array.isArray(schema.required)) {
    const declared = isObject(schema.properties) ? Object.keys(schema.properties) : [];
    const undeclared = schema.required.filter((r) => !declared.includes(r as string));
    if (undeclared.length) problems.push(`'${at}': required fields ${JSON.stringify(undeclared)} are not defined in the schema properties.`);
  }
}
