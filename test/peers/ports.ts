import { createServer } from "node:net";

/**
 * A TCP port on 127.0.0.1 that was free a moment ago (the kernel picks it; the listener is closed
 * again). For peers and servers a test starts, and as a port known to refuse connections.
 */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}
