/**
 * @module The SMTP transport: one message per connection over `cloudflare:sockets`, always encrypted. Port 465
 * speaks TLS from the first byte (RFC 8314); any other port must offer STARTTLS, and the connection is dropped
 * before a credential is sent when it does not: never a silent fall-back to plain text. The runtime verifies the
 * server's certificate against the host name. Errors name the step that failed and the server's answer, never
 * the message or the password.
 */
import { connect } from "cloudflare:sockets";
import type { SmtpSettings } from "../models/smtp-config";
import type { MailMessage } from "./message";

export type TlsMode = "implicit" | "starttls";

/** Port 465 is SMTP over TLS; every other port (587, 25, 2525) starts in plain text and upgrades. */
export const tlsModeFor = (port: number): TlsMode => (port === 465 ? "implicit" : "starttls");

/**
 * Where a conversation failed: reaching the server (greeting and EHLO included), the TLS upgrade, the login, or
 * sending the message (sender, recipient, data).
 */
export type SmtpStage = "connect" | "tls" | "login" | "message";

/** A failure with a sentence an operator understands; `stage` is set where the conversation stopped. */
export class SmtpError extends Error {
  stage: SmtpStage = "connect";

  constructor(
    message: string,
    /** The reason without the step's own words ("could not connect to …"), for a sentence that names the step. */
    readonly detail = message,
  ) {
    super(message);
  }
}

const TIMEOUT_MS = 10_000;
/** A reply longer than this is not a mail server talking. */
const MAX_REPLY_CHARS = 64 * 1024;

export async function sendViaSmtp(
  settings: SmtpSettings,
  message: MailMessage,
  tls: TlsMode = tlsModeFor(settings.port),
): Promise<void> {
  await converse(settings, tls, message);
}

/**
 * The same conversation as a send, step by step, to check settings before they are stored: connect, upgrade to
 * TLS, log in, and only with `testMessage` send it. A failure is an `SmtpError` whose `stage` names the step.
 */
export async function checkSmtp(settings: SmtpSettings, testMessage?: MailMessage): Promise<void> {
  await converse(settings, tlsModeFor(settings.port), testMessage);
}

async function converse(settings: SmtpSettings, tls: TlsMode, message: MailMessage | undefined): Promise<void> {
  const credentials = [
    settings.password,
    base64(settings.password),
    base64(`\0${settings.user}\0${settings.password}`),
  ];
  let stage: SmtpStage = "connect";
  try {
    const connection = await SmtpConnection.open(settings.host, settings.port, tls, credentials);
    try {
      await connection.expect(2, "the greeting");
      const heloName = settings.from.split("@").pop() || "localhost";
      let features = await connection.ehlo(heloName);
      if (tls === "starttls") {
        stage = "tls";
        if (!features.has("STARTTLS"))
          throw new SmtpError(
            "the server does not offer STARTTLS, and the password is never sent unencrypted (port 465 is TLS from the start)",
          );
        await connection.command("STARTTLS", 2, "STARTTLS");
        await connection.upgradeToTls();
        features = await connection.ehlo(heloName);
      }
      stage = "login";
      await authenticate(connection, features.get("AUTH") ?? [], settings);
      if (message) {
        stage = "message";
        await connection.command(`MAIL FROM:<${settings.from}>`, 2, "the sender");
        await connection.command(`RCPT TO:<${message.to}>`, 2, "the recipient");
        await connection.command("DATA", 3, "DATA");
        await connection.command(`${formatMessage(settings.from, message)}.`, 2, "the message");
      }
      await connection.command("QUIT", 2, "QUIT").catch(() => undefined);
    } finally {
      await connection.close();
    }
  } catch (err) {
    const failure = err instanceof SmtpError ? err : new SmtpError(reason(err));
    failure.stage = stage;
    throw failure;
  }
}

async function authenticate(connection: SmtpConnection, mechanisms: string[], settings: SmtpSettings) {
  if (mechanisms.includes("PLAIN"))
    return void (await connection.command(
      `AUTH PLAIN ${base64(`\0${settings.user}\0${settings.password}`)}`,
      2,
      "the login",
    ));
  if (mechanisms.includes("LOGIN")) {
    await connection.command("AUTH LOGIN", 3, "the login");
    await connection.command(base64(settings.user), 3, "the login");
    return void (await connection.command(base64(settings.password), 2, "the login"));
  }
  throw new SmtpError(
    `the server offers no login method this service speaks (PLAIN, LOGIN): AUTH ${mechanisms.join(" ")}`,
  );
}

/**
 * The message as RFC 5322 text ending in CRLF. The body is base64 (UTF-8 safe, short lines, and no line can
 * start with a dot, so no dot-stuffing is needed).
 */
export function formatMessage(from: string, message: MailMessage): string {
  for (const value of [from, message.to, message.subject])
    if (/[\r\n]/.test(value)) throw new SmtpError("a header of the message contains a line break");
  const headers = [
    `From: ${from}`,
    `To: ${message.to}`,
    `Subject: ${encodeHeader(message.subject)}`,
    `Date: ${new Date().toUTCString().replace("GMT", "+0000")}`,
    `Message-ID: <${crypto.randomUUID()}@${from.split("@").pop()}>`,
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    "Content-Transfer-Encoding: base64",
  ];
  const body = base64(message.text.replace(/\r?\n/g, "\r\n")).match(/.{1,76}/g) ?? [];
  return [...headers, "", ...body, ""].join("\r\n");
}

/** RFC 2047 encoded words for a header with non-ASCII text, each at most 45 bytes of UTF-8 (60 of base64). */
function encodeHeader(text: string): string {
  if (/^[\x20-\x7e]*$/.test(text)) return text;
  const words: string[] = [];
  let word = "";
  for (const char of text) {
    if (utf8.encode(word + char).length > 45) {
      words.push(word);
      word = "";
    }
    word += char;
  }
  words.push(word);
  return words.map((w) => `=?UTF-8?B?${base64(w)}?=`).join(" ");
}

const utf8 = new TextEncoder();

function base64(text: string): string {
  let binary = "";
  for (const byte of utf8.encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

interface Reply {
  code: number;
  text: string;
}

/** One SMTP conversation: commands, multi-line replies, the STARTTLS upgrade; every wait has a time limit. */
class SmtpConnection {
  private reader: ReadableStreamDefaultReader<Uint8Array>;
  private writer: WritableStreamDefaultWriter<Uint8Array>;
  private received = "";
  private decoder = new TextDecoder();

  private constructor(
    private socket: Socket,
    /** Never repeated in an error, should a server quote them back. */
    private readonly credentials: string[],
  ) {
    this.reader = socket.readable.getReader();
    this.writer = socket.writable.getWriter();
  }

  static async open(host: string, port: number, tls: TlsMode, credentials: string[]): Promise<SmtpConnection> {
    const socket = connect(
      { hostname: host, port },
      { secureTransport: tls === "implicit" ? "on" : "starttls", allowHalfOpen: false },
    );
    const connection = new SmtpConnection(socket, credentials);
    try {
      await withTimeout(socket.opened, "the connection");
    } catch (err) {
      await connection.close();
      throw new SmtpError(
        `could not connect to ${host}:${port}${tls === "implicit" ? " over TLS" : ""}: ${reason(err)}`,
        reason(err),
      );
    }
    return connection;
  }

  /** Sends a line (never quoted in errors: it may hold a credential) and expects a reply of `expected`xx. */
  async command(line: string, expected: number, step: string): Promise<Reply> {
    try {
      await this.writer.write(utf8.encode(`${line}\r\n`));
    } catch (err) {
      throw new SmtpError(`the connection failed while sending ${step}: ${reason(err)}`);
    }
    return this.expect(expected, step);
  }

  async expect(expected: number, step: string): Promise<Reply> {
    const reply = await this.reply(step);
    if (Math.floor(reply.code / 100) !== expected)
      throw new SmtpError(`${step} was refused: ${reply.code} ${this.excerpt(reply.text)}`);
    return reply;
  }

  /** EHLO, answering the server's extensions by keyword (`AUTH` -> its mechanisms). */
  async ehlo(name: string): Promise<Map<string, string[]>> {
    const reply = await this.command(`EHLO ${name}`, 2, "EHLO");
    const features = new Map<string, string[]>();
    for (const line of reply.text.split("\n").slice(1)) {
      const [keyword, ...params] = line.trim().toUpperCase().split(/[ =]+/);
      if (keyword) features.set(keyword, params);
    }
    return features;
  }

  async upgradeToTls(): Promise<void> {
    // Anything the server sent after its 220 would be read as if it came over TLS (a known injection): refuse.
    if (this.received) throw new SmtpError("the server sent data before the TLS handshake");
    this.reader.releaseLock();
    this.writer.releaseLock();
    this.socket = this.socket.startTls();
    this.reader = this.socket.readable.getReader();
    this.writer = this.socket.writable.getWriter();
    try {
      await withTimeout(this.socket.opened, "the TLS handshake");
    } catch (err) {
      throw new SmtpError(
        `the TLS handshake failed (is the server's certificate valid for its host name and issued by a public CA?): ${reason(err)}`,
      );
    }
  }

  async close(): Promise<void> {
    await withTimeout(this.socket.close(), "closing").catch(() => undefined);
  }

  /** One reply, its lines joined with "\n". */
  private async reply(step: string): Promise<Reply> {
    const lines: string[] = [];
    for (;;) {
      const end = this.received.indexOf("\n");
      if (end < 0) {
        await this.receive(step);
        continue;
      }
      const line = this.received.slice(0, end).replace(/\r$/, "");
      this.received = this.received.slice(end + 1);
      const match = /^(\d{3})(?:([ -])(.*))?$/.exec(line);
      if (!match)
        throw new SmtpError(`the server answered ${step} with something that is not SMTP: ${this.excerpt(line)}`);
      lines.push(match[3] ?? "");
      if (match[2] !== "-") return { code: Number(match[1]), text: lines.join("\n") };
    }
  }

  private async receive(step: string): Promise<void> {
    if (this.received.length > MAX_REPLY_CHARS) throw new SmtpError(`the server's answer to ${step} is too long`);
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await withTimeout(this.reader.read(), step);
    } catch (err) {
      throw err instanceof SmtpError ? err : new SmtpError(`the connection failed during ${step}: ${reason(err)}`);
    }
    if (chunk.done) throw new SmtpError(`the server closed the connection during ${step}`);
    this.received += this.decoder.decode(chunk.value, { stream: true });
  }

  /** The start of a server's answer for a log line, without our credentials. */
  private excerpt(text: string): string {
    const clean = this.credentials.reduce((t, secret) => (secret ? t.replaceAll(secret, "[credential]") : t), text);
    return clean.replace(/\s+/g, " ").slice(0, 200);
  }
}

async function withTimeout<T>(promise: Promise<T>, step: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new SmtpError(`no answer within ${TIMEOUT_MS / 1000} s during ${step}`)),
      TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const reason = (err: unknown) => (err instanceof Error ? err.message : String(err));
