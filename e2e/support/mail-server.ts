/** A real SMTP server in the test process (npm smtp-server), keeping every message it receives. */
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";
import { freePort } from "../../scripts/lib.mjs";

export interface MailServer {
  port: number;
  messages: ParsedMail[];
  /** Waits for a message to `to` matching `predicate`. */
  waitFor(to: string, predicate?: (mail: ParsedMail) => boolean, timeoutMs?: number): Promise<ParsedMail>;
  close(): Promise<void>;
}

export async function startMailServer(credentials = { user: "mailer", pass: "mail-pass" }): Promise<MailServer> {
  const messages: ParsedMail[] = [];
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    authMethods: ["PLAIN", "LOGIN"],
    onAuth(auth, _session, callback) {
      if (auth.username === credentials.user && auth.password === credentials.pass)
        callback(null, { user: auth.username });
      else callback(new Error("Invalid username or password"));
    },
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          messages.push(mail);
          callback();
        })
        .catch(callback);
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));

  const recipients = (mail: ParsedMail) =>
    [mail.to].flat().flatMap((a) => a?.value.map((v) => v.address?.toLowerCase()) ?? []);

  return {
    port,
    messages,
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
