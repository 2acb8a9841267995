import dns2 from "dns2";

// dns2's types want Resource instances; plain objects are what it encodes.
const { Packet } = dns2 as unknown as { Packet: any };

export interface Zone {
  TXT?: Record<string, string[]>;
  MX?: Record<string, { exchange: string; priority: number }[]>;
  A?: Record<string, string[]>;
  AAAA?: Record<string, string[]>;
  CNAME?: Record<string, string>;
}

/**
 * A real DNS server (dns2, UDP) answering from `zone`, which a test may change while it runs.
 * Names are matched lower-case without the trailing dot; anything else is NXDOMAIN.
 */
export async function startDnsPeer(zone: Zone) {
  const server = (dns2 as any).createServer({
    udp: true,
    handle(request: any, send: any) {
      const response = Packet.createResponseFromRequest(request);
      const [q] = request.questions;
      const name = String(q.name).toLowerCase().replace(/\.$/, "");
      const base = { name: q.name, class: Packet.CLASS.IN, ttl: 1 };
      let found = false;
      if (q.type === Packet.TYPE.TXT && zone.TXT?.[name]) {
        for (const t of zone.TXT[name]) response.answers.push({ ...base, type: Packet.TYPE.TXT, data: t.match(/.{1,255}/g) ?? [""] });
        found = true;
      } else if (q.type === Packet.TYPE.MX && zone.MX?.[name]) {
        for (const m of zone.MX[name]) response.answers.push({ ...base, type: Packet.TYPE.MX, exchange: m.exchange, priority: m.priority });
        found = true;
      } else if (q.type === Packet.TYPE.A && zone.A?.[name]) {
        for (const a of zone.A[name]) response.answers.push({ ...base, type: Packet.TYPE.A, address: a });
        found = true;
      } else if (q.type === Packet.TYPE.AAAA && zone.AAAA?.[name]) {
        for (const a of zone.AAAA[name]) response.answers.push({ ...base, type: Packet.TYPE.AAAA, address: a });
        found = true;
      } else if (q.type === Packet.TYPE.CNAME && zone.CNAME?.[name]) {
        response.answers.push({ ...base, type: Packet.TYPE.CNAME, domain: zone.CNAME[name] });
        found = true;
      }
      const known = [zone.TXT, zone.MX, zone.A, zone.AAAA, zone.CNAME].some((z) => z && name in z);
      if (!found && !known) response.header.rcode = Packet.RCODE.NXDOMAIN;
      send(response);
    },
  });
  await server.listen({ udp: { port: 0, address: "127.0.0.1" } });
  const port = server.addresses().udp.port as number;
  return { server: `127.0.0.1:${port}`, zone, close: () => server.close() };
}
