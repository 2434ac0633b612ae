/** Creating a platform super administrator (a production install's first account). */
import { accountActor, writeAudit } from "../auth/audit";
import type { PasswordHasher } from "../auth/passwords";
import { usernameMatches } from "../auth/usernames";
import type { Db } from "../db/client";
import { users } from "../db/schema";
import { MIN_PASSWORD_LENGTH } from "../domains/site/site";

export interface NewAdmin {
  username: string;
  password: string;
  name: string;
  servicerVer: "v1" | "v2";
}

export async function createSuperAdmin(db: Db, hasher: PasswordHasher, admin: NewAdmin): Promise<number> {
  if (!/^[A-Za-z0-9_.@-]{3,50}$/.test(admin.username)) throw new Error("The username needs 3 to 50 letters, digits or _ . @ -");
  if (admin.password.length < MIN_PASSWORD_LENGTH) throw new Error(`The password needs at least ${MIN_PASSWORD_LENGTH} characters`);
  const [taken] = await db.select({ username: users.username }).from(users).where(usernameMatches(admin.username));
  if (taken) throw new Error(`The username ${admin.username} is already taken (as ${taken.username}: usernames differ by more than case or width)`);
  const passwordHash = await hasher.hash(admin.password);
  const [row] = await db
    .insert(users)
    .values({ username: admin.username, passwordHash, name: admin.name, userType: "system", servicerVer: admin.servicerVer, isSuperadmin: "Y" })
    .returning({ id: users.id });
  await writeAudit(db, accountActor({ userId: row.id, username: admin.username }), { action: "create_admin", entity: "user", entityId: row.id, sysid: null, schId: null });
  return row.id;
}
