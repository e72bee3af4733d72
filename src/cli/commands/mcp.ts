import type { Command } from 'commander';
import type { CommandModule } from './command.js';

const cmd: CommandModule = {
  name: 'mcp',
  register(program: Command) {
    program
      .command('mcp')
      .description(
        "IOLens for an LLM assistant: a Model Context Protocol server on standard input/output whose tools (report, trace_summary, compare; jobs and job with --db; explain with --model) answer from IOLens's numbers, read-only (docs/mcp.md)",
      )
      .option('--db <file>', 'a job store for the jobs and job tools (opened read-only)')
      .option('--model <file>', 'a model file of iolens train for the explain tool')
      .action(async (o: { db?: string; model?: string }) => {
        const { createMcpServer } = await import('../../mcp/server.js');
        const { LineTransport } = await import('../../mcp/stdio.js');
        // (the store and the model are opened before the protocol starts: a bad file is one error line and exit 2)
        const mcp = await createMcpServer({ ...(o.db ? { db: o.db } : {}), ...(o.model ? { model: o.model } : {}) });
        // (IOLens's own stdio transport: oversized, malformed and batched messages are answered, and serving goes on)
        const transport = new LineTransport();
        await mcp.server.connect(transport);
        // served until the client closes standard input
        await new Promise<void>((resolve) => {
          process.stdin.once('end', resolve);
          process.stdin.once('close', resolve);
        });
        await mcp.close();
      });
  },
};

export default cmd;
