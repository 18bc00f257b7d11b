export function cheaperNames(code: string, file: string): string;
