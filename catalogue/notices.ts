/**
 * The notifier's settings (spec 2.3 notifyset, v2 servicev2): who is told of each payment and refund, and how often
 * a guardian may be reminded of what is owed. Reminders themselves are a bill's action (`billremind`,
 * catalogue/collection.ts); the messages sent are listed on the notices page. Server side: server/notify/ and
 * server/domains/notices/; labels in locales/<lang>/notices.json.
 */
import type { CatalogueDomain, SettingsDecl } from "../common/catalogue";
import { anyOf, OPERATOR_ROLES, PROVIDER_ROLES, PROVIDER_STAFF_ROLES, SCHOOL_ROLES } from "../common/roleKeys";
import { yesNo } from "./shared";

/** who reads the notices sent (noticelist): whoever works with a provider's or a school's collection */
export const NOTICE_READERS = anyOf(OPERATOR_ROLES, PROVIDER_ROLES, PROVIDER_STAFF_ROLES, SCHOOL_ROLES);

/** a guardian is reminded at most once in this many hours, unless the provider says otherwise */
const DEFAULT_REMINDER_INTERVAL_HOURS = 24;

export const notifySettings: SettingsDecl = {
  name: "notifyset",
  scope: "provider",
  title: "notices.settings.title",
  roles: { info: ["servicev2"], edit: ["servicev2"] },
  fields: [
    { name: "payment_guardian", type: "yesno", label: "notices.field.payment_guardian", required: true, default: "Y", options: yesNo },
    { name: "refund_guardian", type: "yesno", label: "notices.field.refund_guardian", required: true, default: "Y", options: yesNo },
    { name: "payment_staff", type: "yesno", label: "notices.field.payment_staff", required: true, default: "N", options: yesNo },
    { name: "refund_staff", type: "yesno", label: "notices.field.refund_staff", required: true, default: "Y", options: yesNo },
    {
      name: "reminder_interval_hours",
      type: "int",
      label: "notices.field.reminder_interval_hours",
      required: true,
      default: DEFAULT_REMINDER_INTERVAL_HOURS,
      min: 1,
      max: 720,
    },
  ],
};

export const notices: CatalogueDomain = {
  entities: [],
  settings: [notifySettings],
  pages: { notifyset: { kind: "settings", settings: "notifyset" } },
};
