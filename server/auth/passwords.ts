/** argon2id password hashing (DESIGN 5: m = 19 MiB, t = 2, p = 1). */
import { hash, verify } from "@node-rs/argon2";

/** Algorithm.Argon2id of @node-rs/argon2 (an ambient const enum, which isolated modules cannot read) */
const ARGON2ID = 2;

export interface PasswordCost {
  /** KiB */
  memoryCost: number;
  timeCost: number;
}

export const PRODUCTION_PASSWORD_COST: PasswordCost = { memoryCost: 19456, timeCost: 2 };

export class PasswordHasher {
  /** verified against when the user does not exist, so an unknown name costs as much time as a wrong password */
  private dummyHash: Promise<string> | undefined;

  constructor(private readonly cost: PasswordCost = PRODUCTION_PASSWORD_COST) {}

  hash(password: string): Promise<string> {
    return hash(password, { algorithm: ARGON2ID, ...this.cost, parallelism: 1 });
  }

  async verify(passwordHash: string, password: string): Promise<boolean> {
    try {
      return await verify(passwordHash, password);
    } catch {
      return false;
    }
  }

  /** Spends the time of a verification without a stored hash. */
  async verifyNothing(password: string): Promise<false> {
    this.dummyHash ??= this.hash("no such user");
    await this.verify(await this.dummyHash, password);
    return false;
  }
}
