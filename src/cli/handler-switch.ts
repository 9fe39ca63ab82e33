import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { FastifyServerFactory } from 'fastify';

/** A Node request listener: what an HTTP server calls for each request. */
export type RequestHandler = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * A Fastify `serverFactory` that keeps the request handler Fastify gives it and returns a server
 * that never listens: the app is served by whoever calls `handler()` (the develop server's
 * {@link HandlerSwitch}). `handler()` throws until Fastify has called the factory.
 */
export function capturingServerFactory(): { readonly factory: FastifyServerFactory; handler(): RequestHandler } {
  let captured: RequestHandler | null = null;
  return {
    factory: (handler) => {
      captured = handler as RequestHandler;
      return createServer();
    },
    handler() {
      if (!captured) throw new Error('Fastify has not created its server yet');
      return captured;
    },
  };
}

/** One app's handler and the requests it is answering. */
interface Slot {
  readonly handle: RequestHandler;
  inFlight: number;
  readonly waiting: (() => void)[];
}

/** The request listener of one long-lived HTTP server, passing each request to the current app. */
export interface HandlerSwitch {
  /** The listener to give `http.createServer`. */
  readonly listener: RequestListener;
  /**
   * Sends every request from now on to `next`; resolves once the requests the previous handler
   * had started have all ended (answered, or their client gone), or after `graceMs`.
   */
  switchTo(next: RequestHandler, graceMs: number): Promise<void>;
}

/**
 * A switch between apps for `cairn develop`: a request is answered wholly by the app current when
 * it arrived (one keep-alive connection may see the old app, then the new one), and the old app is
 * told when its last request ended, so it can close without cutting any.
 */
export function createHandlerSwitch(first: RequestHandler): HandlerSwitch {
  let current = slot(first);
  return {
    listener(request, response) {
      const serving = current;
      serving.inFlight += 1;
      response.once('close', () => {
        serving.inFlight -= 1;
        if (serving.inFlight === 0) for (const done of serving.waiting.splice(0)) done();
      });
      serving.handle(request, response);
    },
    switchTo(next, graceMs) {
      const previous = current;
      current = slot(next);
      if (previous.inFlight === 0) return Promise.resolve();
      return new Promise((done) => {
        const timer = setTimeout(done, graceMs);
        timer.unref();
        previous.waiting.push(() => {
          clearTimeout(timer);
          done();
        });
      });
    },
  };
}

function slot(handle: RequestHandler): Slot {
  return { handle, inFlight: 0, waiting: [] };
}
