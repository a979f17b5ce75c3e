import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import * as dnsPacket from 'dns-packet';

/** A DNS server on 127.0.0.1 (UDP, a free port) that answers A queries for names the test sets, as Docker's DNS does. */
export interface DnsDouble {
  /** `127.0.0.1:<port>`, as nginx's `resolver` takes it. */
  address: string;
  /** What `name` resolves to from now on: these IPv4 addresses, or none (NXDOMAIN). */
  set(name: string, addresses: readonly string[]): void;
  /** How many queries it has answered. */
  queries(): number;
  close(): Promise<void>;
}

/** Answers with a TTL of 0 so that nginx's own `valid=` alone decides how long it keeps an answer. */
export async function startDnsDouble(): Promise<DnsDouble> {
  const records = new Map<string, readonly string[]>();
  let answered = 0;
  const socket = createSocket('udp4');
  socket.on('message', (message, peer) => {
    let query: dnsPacket.Packet;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return;
    }
    const question = query.questions?.[0];
    if (question === undefined) return;
    const addresses = records.get(question.name.toLowerCase());
    const answers = question.type === 'A' ? (addresses ?? []) : [];
    const reply = dnsPacket.encode({
      type: 'response',
      id: query.id,
      // Authoritative; NXDOMAIN (rcode 3) for a name it does not know.
      flags: dnsPacket.AUTHORITATIVE_ANSWER | (addresses === undefined || addresses.length === 0 ? 3 : 0),
      questions: [question],
      answers: answers.map((data) => ({ type: 'A' as const, class: 'IN' as const, name: question.name, ttl: 0, data })),
    });
    answered += 1;
    socket.send(reply, peer.port, peer.address);
  });
  socket.bind(0, '127.0.0.1');
  await once(socket, 'listening');
  const { port } = socket.address();
  return {
    address: `127.0.0.1:${port}`,
    set: (name, addresses) => records.set(name.toLowerCase(), [...addresses]),
    queries: () => answered,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}
