import net from "node:net";

/**
 * A minimal SMTP client for address verification: greeting, EHLO (HELO when refused), MAIL FROM, then
 * any number of RCPT TO, and QUIT — never DATA, so no message is ever sent. Every wait has the session's
 * timeout; a timeout, a refused connection or a dropped socket rejects with a ProbeError.
 */

export interface SmtpReply {
  code: number;
  text: string;
}

export class ProbeError extends Error {
  constructor(
    readonly kind: "timeout" | "connect" | "closed" | "refused",
    message: string,
    readonly reply?: SmtpReply,
  ) {
    super(message);
  }
}

export interface ProbeSession {
  rcpt(address: string): Promise<SmtpReply>;
  quit(): Promise<void>;
}

/** Reads SMTP replies off a socket: lines are collected until a line whose 4th char is a space. */
function replyReader(socket: net.Socket, timeoutMs: number) {
  let buffer = "";
  let lines: string[] = [];
  let waiting: { resolve: (r: SmtpReply) => void; reject: (e: Error) => void; timer: NodeJS.Timeout } | undefined;
  let failure: ProbeError | undefined;
  const ready: SmtpReply[] = [];

  const settle = () => {
    if (!waiting) return;
    const w = waiting;
    if (ready.length) {
      waiting = undefined;
      clearTimeout(w.timer);
      w.resolve(ready.shift() as SmtpReply);
    } else if (failure) {
      waiting = undefined;
      clearTimeout(w.timer);
      w.reject(failure);
    }
  };
  socket.on("data", (chunk: Buffer) => {
    buffer += chunk.toString("latin1");
    let i = buffer.indexOf("\n");
    while (i >= 0) {
      const line = buffer.slice(0, i).replace(/\r$/, "");
      buffer = buffer.slice(i + 1);
      lines.push(line);
      if (!/^\d{3}-/.test(line)) {
        ready.push({ code: Number(line.slice(0, 3)) || 0, text: lines.map((l) => l.slice(4)).join("\n") });
        lines = [];
      }
      i = buffer.indexOf("\n");
    }
    settle();
  });
  const fail = (e: ProbeError) => {
    failure ??= e;
    settle();
  };
  socket.on("error", (e) => fail(new ProbeError("closed", e.message)));
  socket.on("close", () => fail(new ProbeError("closed", "the server closed the connection")));

  return (): Promise<SmtpReply> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        waiting = undefined;
        reject(new ProbeError("timeout", `no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      waiting = { resolve, reject, timer };
      settle();
    });
}

function connect(host: string, port: number, timeoutMs: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    const timer = setTimeout(() => {
      socket.destroy();
      // No connection at all (a port filtered on the way out) is a connect failure, as a refusal is.
      reject(new ProbeError("connect", `no connection to ${host}:${port} within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.once("connect", () => {
      clearTimeout(timer);
      resolve(socket);
    });
    socket.once("error", (e) => {
      clearTimeout(timer);
      reject(new ProbeError("connect", `${host}:${port}: ${e.message}`));
    });
  });
}

/** Opens a session up to MAIL FROM. A refusal on the way (greeting, EHLO/HELO, MAIL) rejects with kind `refused` and the reply. */
export async function openProbe(opts: {
  host: string;
  port: number;
  timeoutMs: number;
  helo: string;
  mailFrom: string;
}): Promise<ProbeSession> {
  const socket = await connect(opts.host, opts.port, opts.timeoutMs);
  const next = replyReader(socket, opts.timeoutMs);
  const send = async (line: string) => {
    socket.write(`${line}\r\n`);
    return next();
  };
  const expect2xx = (r: SmtpReply, what: string) => {
    if (r.code < 200 || r.code >= 300) throw new ProbeError("refused", `${what}: ${r.code} ${r.text}`, r);
  };
  try {
    expect2xx(await next(), "greeting");
    const ehlo = await send(`EHLO ${opts.helo}`);
    if (ehlo.code >= 500) expect2xx(await send(`HELO ${opts.helo}`), "HELO");
    else expect2xx(ehlo, "EHLO");
    expect2xx(await send(`MAIL FROM:<${opts.mailFrom}>`), "MAIL FROM");
  } catch (e) {
    socket.destroy();
    throw e;
  }
  return {
    rcpt: (address) => send(`RCPT TO:<${address}>`),
    async quit() {
      try {
        if (!socket.destroyed) await send("QUIT");
      } catch {
        /* the answer to QUIT does not matter */
      } finally {
        socket.destroy();
      }
    },
  };
}
