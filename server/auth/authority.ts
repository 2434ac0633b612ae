/**
 * A request's authority: its session user as the database says now (never what the client claims), with the
 * provider and school facts that decide its role keys (common/roleKeys.ts) and the tenants it may act in.
 */
import { eq, sql } from "drizzle-orm";
import { normaliseUserType, roleKeys, servicerVersion, type RoleFacts, type ServicerVersion, type UserType } from "../../common/roleKeys";
import { tableColumn, type CatalogueTable } from "../db/catalogueTables";
import type { DbOrTx } from "../db/client";
import { pickupPoints, providers, schools, userSchools, users } from "../db/schema";

export interface ProviderFacts {
  id: number;
  title: string;
  endTime: string;
  status: string;
  servicerVer: ServicerVersion;
  xcxUpload: string;
  isShowFee: string;
  openActivityMode: string;
  /** price of a one-year renewal (get_sysdelay_pay) */
  yearFeeFen: number;
}

export interface SchoolFacts {
  id: number;
  sysid: number;
  title: string;
  endtime: string;
  status: string;
  selectPaymode: string;
}

/** The role facts of spec 4.1 as the database gives them, every flag 'Y' or 'N'. */
export interface AccountFacts extends RoleFacts {
  user_type: UserType;
  servicer_ver: ServicerVersion;
  select_paymode: string;
  xcx_upload: string;
  is_superadmin: string;
  is_show_fee: string;
}

export interface Authority {
  userId: number;
  username: string;
  name: string;
  avatar: string;
  introduction: string;
  /** as stored (returned to the client) */
  storedUserType: string;
  userType: UserType;
  isSuperadmin: string;
  sysid: number | null;
  schid: number | null;
  provider: ProviderFacts | null;
  school: SchoolFacts | null;
  /** the facts that give the role keys (spec 4.1); also the flags the login answer gives the SPA */
  facts: AccountFacts;
  roles: string[];
  /** whether the account may be used now: user, its provider and its school are active, and v1 has its type */
  usable: boolean;
  /** the schools assigned to a provider staff account (empty for everyone else) */
  assignedSchoolIds: number[];
  /** the pickup points of a pickup clerk (empty for everyone else) */
  pickupPointIds: number[];
  /** an API client acting through the open API (no account: `userId` is 0, `username` is `api:{client_id}`) */
  apiClient?: true;
}

function str(value: unknown): string {
  return value === null || value === undefined ? "" : String(value);
}

export type CatalogueRow = Record<string, unknown>;

export function providerFacts(r: CatalogueRow): ProviderFacts {
  return {
    id: Number(r.id),
    title: str(r.title),
    endTime: str(r.end_time),
    status: str(r.status),
    servicerVer: servicerVersion(str(r.servicer_ver)),
    xcxUpload: str(r.xcx_upload) || "N",
    isShowFee: str(r.is_show_fee) || "N",
    openActivityMode: str(r.open_activity_mode),
    yearFeeFen: Number(r.year_fee) || 0,
  };
}

export function schoolFacts(r: CatalogueRow): SchoolFacts {
  return {
    id: Number(r.id),
    sysid: Number(r.sysid),
    title: str(r.title),
    endtime: str(r.endtime),
    status: str(r.status),
    selectPaymode: str(r.select_paymode) || "N",
  };
}

export async function loadProvider(db: DbOrTx, sysid: number): Promise<ProviderFacts | null> {
  const [row] = await db.select(columnsOf(providers, PROVIDER_FACT_COLUMNS)).from(providers).where(eq(tableColumn(providers, "id"), sysid));
  return row ? providerFacts(row) : null;
}

export async function loadSchool(db: DbOrTx, schid: number): Promise<SchoolFacts | null> {
  const [row] = await db.select(columnsOf(schools, SCHOOL_FACT_COLUMNS)).from(schools).where(eq(tableColumn(schools, "id"), schid));
  return row ? schoolFacts(row) : null;
}

/** Role facts of a provider's service account: what a system user switched into that provider also gets. */
export function serviceFacts(provider: ProviderFacts): AccountFacts {
  return {
    user_type: "service",
    servicer_ver: provider.servicerVer,
    xcx_upload: provider.xcxUpload,
    is_show_fee: provider.isShowFee,
    select_paymode: "N",
    is_superadmin: "N",
  };
}

export const columnsOf = (table: CatalogueTable, names: readonly string[]) => Object.fromEntries(names.map((name) => [name, tableColumn(table, name)]));

/** The columns the facts of a provider and of a school are read from. */
export const PROVIDER_FACT_COLUMNS = ["id", "title", "end_time", "status", "servicer_ver", "xcx_upload", "is_show_fee", "open_activity_mode", "year_fee"] as const;
export const SCHOOL_FACT_COLUMNS = ["id", "sysid", "title", "endtime", "status", "select_paymode"] as const;

/**
 * The columns an authority is made of, and nothing more: every authenticated request reads them (never the
 * password hash).
 */
export const authorityColumns = {
  user: {
    id: users.id,
    username: users.username,
    name: users.name,
    avatar: users.avatar,
    introduction: users.introduction,
    userType: users.userType,
    servicerVer: users.servicerVer,
    sysid: users.sysid,
    schid: users.schid,
    isSuperadmin: users.isSuperadmin,
    status: users.status,
  },
  provider: columnsOf(providers, PROVIDER_FACT_COLUMNS),
  school: columnsOf(schools, SCHOOL_FACT_COLUMNS),
  // read with the user, so that a staff account's or a clerk's scope costs no query of its own
  tenancy: {
    assigned: sql<number[] | null>`case when ${users.userType} = 'service_schadmin' then array(select ${userSchools.schId} from ${userSchools} where ${userSchools.userId} = ${users.id}) end`,
    // the points of its provider that name it a verifier
    pickupPoints: sql<number[] | null>`case when ${users.userType} = 'pickup' then array(select ${pickupPoints.id} from ${pickupPoints} where ${pickupPoints.sysid} = ${users.sysid} and ${users.id} = any(${pickupPoints.verifiers}) order by ${pickupPoints.id}) end`,
  },
};

/** What the authority query reads beside the user, provider and school. */
export interface AuthorityTenancy {
  assigned: number[] | null;
  pickupPoints: number[] | null;
}

export type AuthorityUser = Pick<typeof users.$inferSelect, keyof typeof authorityColumns.user>;

export async function loadAuthority(db: DbOrTx, userId: number): Promise<Authority | null> {
  const [row] = await db
    .select(authorityColumns)
    .from(users)
    .leftJoin(providers, eq(tableColumn(providers, "id"), users.sysid))
    .leftJoin(schools, eq(tableColumn(schools, "id"), users.schid))
    .where(eq(users.id, userId));
  return row ? authorityOf(row.user, row.provider, row.school, row.tenancy) : null;
}

/** The authority of a user with its provider and school rows (null when it has none). */
export function authorityOf(user: AuthorityUser, providerRow: CatalogueRow | null, schoolRow: CatalogueRow | null, tenancy: AuthorityTenancy): Authority {
  const userType = normaliseUserType(user.userType);
  const provider = user.sysid === null || !providerRow ? null : providerFacts(providerRow);
  const school = user.schid === null || !schoolRow ? null : schoolFacts(schoolRow);
  const ver: ServicerVersion = userType === "system" ? servicerVersion(user.servicerVer) : (provider?.servicerVer ?? "v1");
  // flags count only where spec 4.1 reads them: the provider's upload flag for its accounts and its staff alike,
  // the fee flag for a provider account, paymode for a school
  const providerSide = userType === "service" || userType === "service_schadmin";
  const facts: AccountFacts = {
    user_type: userType,
    servicer_ver: ver,
    is_superadmin: userType === "system" ? user.isSuperadmin : "N",
    xcx_upload: providerSide ? (provider?.xcxUpload ?? "N") : "N",
    is_show_fee: userType === "service" ? (provider?.isShowFee ?? "N") : "N",
    select_paymode: userType === "school" ? (school?.selectPaymode ?? "N") : "N",
  };
  const needsProvider = userType !== "system";
  const needsSchool = userType === "school";
  // v1 has no provider staff or pickup generation: spec 4.1 would hand them system keys
  const typeExistsInVersion = !(ver === "v1" && (userType === "service_schadmin" || userType === "pickup"));
  const usable =
    user.status === "1" &&
    (!needsProvider || provider?.status === "1") &&
    (!needsSchool || (school?.status === "1" && school.sysid === user.sysid)) &&
    typeExistsInVersion;
  return {
    userId: user.id,
    username: user.username,
    name: user.name,
    avatar: user.avatar,
    introduction: user.introduction,
    storedUserType: user.userType,
    userType,
    isSuperadmin: facts.is_superadmin,
    sysid: user.sysid,
    schid: user.schid,
    provider,
    school,
    facts,
    roles: roleKeys(facts),
    usable,
    assignedSchoolIds: (tenancy.assigned ?? []).map(Number),
    pickupPointIds: (tenancy.pickupPoints ?? []).map(Number),
  };
}
