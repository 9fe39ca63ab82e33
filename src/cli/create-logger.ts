import pino, { type Logger } from 'pino';
import { UsageError } from './cli-args.js';

/** How the server writes its log: readable lines for a person, or one JSON object a line for a collector. */
export type LogFormat = 'pretty' | 'json';

/**
 * The log format a run uses: `--log-format` first, then `CAIRN_LOG_FORMAT`; without either,
 * readable lines when standard output is a terminal outside production, JSON otherwise (piped,
 * redirected to a file, under a process manager or in a container without a TTY).
 */
export function chooseLogFormat(
  flag: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  isTerminal: boolean,
): LogFormat {
  const chosen = flag ?? env.CAIRN_LOG_FORMAT;
  if (chosen === 'pretty' || chosen === 'json') return chosen;
  if (chosen !== undefined && chosen !== '') {
    const where = flag !== undefined ? '--log-format' : 'CAIRN_LOG_FORMAT';
    throw new UsageError(`${where} must be "pretty" or "json", got "${chosen}"`);
  }
  return isTerminal && env.NODE_ENV !== 'production' ? 'pretty' : 'json';
}

/**
 * The server's logger at `level`. JSON goes to standard output as pino writes it; pretty lines
 * (time, level, message) are formatted by pino-pretty in this thread, synchronously, so a line is
 * on the screen before the next statement runs and nothing is lost when the process exits. Its
 * package is loaded only for a pretty run.
 */
export async function createLogger(format: LogFormat, level: string, colorize: boolean): Promise<Logger> {
  if (format === 'json') return pino({ level });
  const { default: pretty } = await import('pino-pretty');
  return pino(
    { level },
    pretty({ sync: true, colorize, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', singleLine: true }),
  );
}
