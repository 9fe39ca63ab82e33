import { once } from 'node:events';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createSmtpTransport } from './smtp-transport.js';

interface Sink {
  readonly server: Server;
  readonly port: number;
  /** Every command line and message body the sink received, in order. */
  readonly received: string[];
}

/** A minimal SMTP server: accepts every command, keeps what it is told. */
async function startSmtpSink(): Promise<Sink> {
  const received: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.setEncoding('utf8');
    let buffer = '';
    let inData = false;
    socket.write('220 sink ESMTP\r\n');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          received.push(buffer.slice(0, end));
          buffer = buffer.slice(end + 5);
          inData = false;
          socket.write('250 queued\r\n');
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol < 0) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        received.push(line);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'DATA') {
          inData = true;
          socket.write('354 go ahead\r\n');
        } else if (verb === 'QUIT') {
          socket.end('221 bye\r\n');
        } else {
          socket.write('250 ok\r\n');
        }
      }
    });
  });
  server.on('close', () => sockets.forEach((s) => s.destroy()));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, port: (server.address() as AddressInfo).port, received };
}

describe('createSmtpTransport', () => {
  let sink: Sink | undefined;
  afterEach(async () => {
    if (sink) await new Promise((resolve) => sink?.server.close(resolve));
    sink = undefined;
  });

  it('delivers the message over SMTP with the default sender applied', async () => {
    sink = await startSmtpSink();
    const transport = createSmtpTransport({
      providerOptions: { host: '127.0.0.1', port: sink.port, secure: false, ignoreTLS: true },
      settings: { defaultFrom: 'no-reply@example.com', defaultReplyTo: 'help@example.com' },
    });

    await transport.send({ to: 'ada@example.com', subject: 'Reset password', text: 'Your code is abc123' });

    const received = sink.received.join('\n');
    expect(received).toMatch(/^MAIL FROM:<no-reply@example\.com>/m);
    expect(received).toMatch(/^RCPT TO:<ada@example\.com>/m);
    expect(received).toMatch(/^Subject: Reset password$/m);
    expect(received).toMatch(/^Reply-To: help@example\.com$/m);
    expect(received).toContain('Your code is abc123');
  });

  it('keeps the message own sender over the default', async () => {
    sink = await startSmtpSink();
    const transport = createSmtpTransport({
      providerOptions: { host: '127.0.0.1', port: sink.port, secure: false, ignoreTLS: true },
      settings: { defaultFrom: 'no-reply@example.com' },
    });

    await transport.send({ to: 'bob@example.com', from: 'team@example.com', subject: 'Confirm', text: 'Hi' });
    await transport.send({ to: 'eve@example.com', subject: 'Second', text: 'Again' });

    const received = sink.received.join('\n');
    expect(received).toMatch(/^MAIL FROM:<team@example\.com>/m);
    expect(received).toMatch(/^RCPT TO:<bob@example\.com>/m);
    expect(received).toMatch(/^RCPT TO:<eve@example\.com>/m);
    expect(received).toMatch(/^Subject: Second$/m);
  });

  it('rejects when the server cannot be reached', async () => {
    sink = await startSmtpSink();
    const port = sink.port;
    await new Promise((resolve) => sink?.server.close(resolve));
    sink = undefined;
    const transport = createSmtpTransport({
      providerOptions: { host: '127.0.0.1', port, secure: false, ignoreTLS: true },
      settings: {},
    });
    await expect(
      transport.send({ to: 'a@example.com', from: 'b@example.com', subject: 'S', text: 'T' }),
    ).rejects.toThrow();
  });
});
