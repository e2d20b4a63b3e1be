/**
 * A real SMTP server in the test process (npm smtp-server), keeping every message it receives. With a certificate
 * it behaves like a submission server: STARTTLS (or TLS from the first byte), and AUTH only over TLS.
 */
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";
import type { AddressInfo } from "node:net";
import type { ServerCertificate } from "./test-ca";

export interface ReceivedMail extends ParsedMail {
  /** Whether it came over TLS. */
  tls: boolean;
  /** The user that logged in to send it. */
  user: string | undefined;
}

export interface MailServer {
  port: number;
  messages: ReceivedMail[];
  /** Every AUTH the server saw, accepted or not. */
  logins: { user: string; tls: boolean }[];
  /** Waits for a message to `to` matching `predicate`. */
  waitFor(to: string, predicate?: (mail: ParsedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

export interface MailServerOptions {
  /** STARTTLS with this certificate (or, `implicit`, TLS from the first byte); `false`: plain text only. */
  tls: { certificate: ServerCertificate; implicit?: boolean } | false;
  credentials?: { user: string; pass: string };
  /** Recipients answered 550 at RCPT TO. */
  refuseRecipient?: (address: string) => boolean;
}

export async function startMailServer({
  tls,
  credentials = { user: "mailer", pass: "mail-pass" },
  refuseRecipient = () => false,
}: MailServerOptions): Promise<MailServer> {
  const messages: ReceivedMail[] = [];
  const logins: MailServer["logins"] = [];
  const server = new SMTPServer({
    ...(tls
      ? { key: tls.certificate.key, cert: tls.certificate.cert, secure: tls.implicit ?? false }
      : { secure: false, disabledCommands: ["STARTTLS"], allowInsecureAuth: true }),
    authMethods: ["PLAIN", "LOGIN"],
    logger: false,
    onAuth(auth, session, callback) {
      logins.push({ user: auth.username ?? "", tls: session.secure });
      if (auth.username === credentials.user && auth.password === credentials.pass)
        callback(null, { user: auth.username });
      else callback(new Error("Invalid username or password"));
    },
    onRcptTo(address, _session, callback) {
      if (refuseRecipient(address.address)) {
        const refused = Object.assign(new Error("Mailbox unavailable"), { responseCode: 550 });
        callback(refused);
      } else callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          messages.push(Object.assign(mail, { tls: session.secure, user: session.user as string | undefined }));
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;

  const recipients = (mail: ParsedMail) =>
    [mail.to].flat().flatMap((a) => a?.value.map((v) => v.address?.toLowerCase()) ?? []);

  return {
    port,
    messages,
    logins,
    async waitFor(to, predicate = () => true, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const found = messages.find((m) => recipients(m).includes(to.toLowerCase()) && predicate(m));
        if (found) return found;
        await new Promise((r) => setTimeout(r, 200));
      }
      throw new Error(`No mail to ${to} within ${timeoutMs} ms`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
