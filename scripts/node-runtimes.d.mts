export const NODE_FLOOR: number;
export function node22Path(root: string): string;
export function nodeIsCurrent(version?: string): boolean;
export function floorNode(root: string, who: string): Promise<string>;
