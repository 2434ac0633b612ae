import { describe, expect, it } from "vitest";
import { hasAnyRole, roleKeys, type RoleFacts } from "../../common/roleKeys";

// DESIGN 11 demo accounts with the facts their login answers, and the keys common.md expects
const demo: Record<string, [RoleFacts, string[]]> = {
  sysadmin: [{ user_type: "system", servicer_ver: "v2", is_superadmin: "Y" }, ["systemv2", "superadminv2"]],
  sysop: [{ user_type: "system", servicer_ver: "v2", is_superadmin: "N" }, ["systemv2"]],
  sysv1: [{ user_type: "system", servicer_ver: "v1", is_superadmin: "Y" }, ["system", "superadmin"]],
  svc: [{ user_type: "service", servicer_ver: "v2", xcx_upload: "Y", is_show_fee: "Y" }, ["servicev2", "xcxuploadv2", "is_show_fee"]],
  staff: [{ user_type: "service_schadmin", servicer_ver: "v2" }, ["service_schadminv2"]],
  pickup: [{ user_type: "pickup", servicer_ver: "v2" }, ["pickup"]],
  school: [{ user_type: "school", servicer_ver: "v2" }, ["schoolv2"]],
  harbour: [{ user_type: "service", servicer_ver: "v2", xcx_upload: "N" }, ["servicev2"]],
  svcv1: [{ user_type: "service", servicer_ver: "v1", xcx_upload: "N" }, ["service"]],
  schoolv1: [{ user_type: "school", servicer_ver: "v1", select_paymode: "Y" }, ["paymode", "school"]],
};

describe("role keys (spec 4.1)", () => {
  it.each(Object.entries(demo))("%s gets its keys", (_name, [facts, keys]) => {
    expect(roleKeys(facts)).toEqual(keys);
  });

  it("v1 is the default generation", () => {
    expect(roleKeys({ user_type: "service", servicer_ver: "" })).toEqual(["service"]);
    expect(roleKeys({ user_type: "school" })).toEqual(["school"]);
  });

  it("v1 service with the upload flag gets xcxupload first", () => {
    expect(roleKeys({ user_type: "service", servicer_ver: "v1", xcx_upload: "Y" })).toEqual(["xcxupload", "service"]);
  });

  it("v2 provider staff with the upload flag gets xcxuploadv2", () => {
    expect(roleKeys({ user_type: "service_schadmin", servicer_ver: "v2", xcx_upload: "Y" })).toEqual(["service_schadminv2", "xcxuploadv2"]);
  });

  it("an unknown user type is treated as system", () => {
    expect(roleKeys({ user_type: "auditor", servicer_ver: "v2" })).toEqual(["systemv2"]);
    expect(roleKeys({ user_type: "", servicer_ver: "v1", is_show_fee: "Y" })).toEqual(["system", "is_show_fee"]);
  });
});

describe("hasAnyRole (spec 5, 6)", () => {
  it("succeeds when the user holds any listed role", () => {
    expect(hasAnyRole(["servicev2", "xcxuploadv2"], ["systemv2", "xcxuploadv2"])).toBe(true);
    expect(hasAnyRole(["schoolv2"], ["systemv2", "servicev2"])).toBe(false);
  });

  it("role 'admin' holds every right", () => {
    expect(hasAnyRole(["admin"], ["superadminv2"])).toBe(true);
  });

  it("no required roles means everyone", () => {
    expect(hasAnyRole([], undefined)).toBe(true);
    expect(hasAnyRole([], [])).toBe(true);
  });
});
