// `npm run admin:create -- EMAIL PASSWORD [--remote]`: creates the admin, or makes an existing account an admin
// with this password, in the local database (or, with --remote, in the production D1).
import { hashPassword } from "../../worker/auth/password";
import { emailSchema, passwordSchema } from "#contract/schemas";
import { newUserId } from "../../worker/lib/ids";
import { applyLocalMigrations, run, stateDir } from "../dev/lib.mjs";

const args = process.argv.slice(2);
const remote = args.includes("--remote");
const [email, password] = args.filter((a) => a !== "--remote");

const parsedEmail = emailSchema.safeParse(email ?? "");
const parsedPassword = passwordSchema.safeParse(password ?? "");
if (!parsedEmail.success || !parsedPassword.success) {
  console.error("Usage: npm run admin:create -- EMAIL PASSWORD [--remote]");
  for (const issue of [...(parsedEmail.error?.issues ?? []), ...(parsedPassword.error?.issues ?? [])]) {
    console.error(`  ${issue.message}`);
  }
  process.exit(2);
}

const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;
const hash = await hashPassword(parsedPassword.data);
const sql = `INSERT INTO users (id, email, role, email_verified, password_hash)
VALUES (${quote(newUserId())}, ${quote(parsedEmail.data.toLowerCase())}, 'admin', 1, ${quote(hash)})
ON CONFLICT (email) DO UPDATE SET role = 'admin', email_verified = 1, password_hash = excluded.password_hash;`;

if (!remote) applyLocalMigrations();
run(
  "wrangler",
  [
    "d1",
    "execute",
    "DB",
    remote ? "--remote" : "--local",
    ...(remote ? [] : ["--persist-to", stateDir]),
    "--command",
    sql,
  ],
  {
    stdio: ["inherit", "ignore", "inherit"],
  },
);
console.log(`Admin ${parsedEmail.data.toLowerCase()} is ready${remote ? " in the production database" : ""}.`);
