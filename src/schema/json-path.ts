// JSON paths for warnings, in the notation people paste into jq/JSONPath tools: $.properties.area,
// $.properties["my-key"], $.anyOf[1].
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function childPath(parent: string, key: string): string {
  return IDENTIFIER.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
}

export function indexPath(parent: string, index: number): string {
  return `${parent}[${index}]`;
}
