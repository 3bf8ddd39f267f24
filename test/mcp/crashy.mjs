// An MCP server over stdio whose one tool makes the whole server exit in the
// middle of the call: mm's tests check that the call fails with one line
// naming the server and that mm goes on.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

const server = new McpServer({ name: "crashy", version: "1.0.0" });
server.registerTool("crash", { description: "exits the server during the call" }, async () => {
  process.exit(3);
});
await server.connect(new StdioServerTransport());

// MCP_STUBBORN=1: keep running after stdin closes, as a badly behaved server
// would, so that only the kernel's parent-death signal stops it.
if (process.env.MCP_STUBBORN) setInterval(() => {}, 1 << 30);
