// What a declaration's description says: the tool's own description, else its title (Home Assistant
// 2026.10 titles some tools), else a fixed placeholder; the same in every format.
import assert from 'node:assert/strict';
import { compileTools, EMPTY_DESCRIPTION, type ToolFormat } from '../../src/schema';

const schema = { type: 'object' as const, properties: {} };
const tools = [
  { name: 'described', description: 'Turns things on.', title: 'Turn on', inputSchema: schema },
  { name: 'titled', description: '', title: 'Get date and time', inputSchema: schema },
  { name: 'bare', inputSchema: schema },
];

describe('schema compiler: descriptions', () => {
  for (const format of ['gemini', 'gemini-schema', 'openai', 'anthropic'] as ToolFormat[]) {
    it(`${format}: own description, else the title, else "${EMPTY_DESCRIPTION}"`, () => {
      const { payload } = compileTools(tools as never, format);
      const declarations: any[] = format.startsWith('gemini') ? (payload as any).functionDeclarations : (payload as any[]);
      const texts = declarations.map((d) => d.description ?? d.function?.description);
      assert.deepEqual(texts, ['Turns things on.', 'Get date and time', EMPTY_DESCRIPTION]);
    });
  }
});
