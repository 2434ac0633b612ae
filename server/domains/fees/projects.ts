/**
 * Fee projects (a school's, a v1 provider's) beyond CRUD: the rule between their amounts, checked on every write of
 * the record as it will be stored. A fixed project asks its amount; an open one its lowest and highest amounts, the
 * highest not below the lowest. The amounts of the other mode are cleared, so that a project turned from open to
 * fixed keeps no bounds it no longer has.
 */
import { eq } from "drizzle-orm";
import type { EntityDecl } from "../../../common/catalogue";
import { projectEntity, serviceProjectEntity } from "../../../catalogue/fees";
import { tableColumn, type CatalogueTable } from "../../db/catalogueTables";
import { feeProjects, providerFeeProjects } from "../../db/schema";
import { checkFieldRelations, inapplicableValues } from "../../engine/fieldRelations";
import type { EntityHooks } from "../../engine/hooks";

function projectHooks(entity: EntityDecl, table: CatalogueTable): EntityHooks {
  return {
    beforeAdd(ctx, _scope, record) {
      Object.assign(record, inapplicableValues(entity.fields, record));
      checkFieldRelations(ctx, entity.fields, record);
    },
    async afterEdit(ctx, tx, _before, after) {
      const cleared = inapplicableValues(entity.fields, after);
      checkFieldRelations(ctx, entity.fields, { ...after, ...cleared });
      if (Object.keys(cleared).length > 0) await tx.update(table).set(cleared).where(eq(tableColumn(table, "id"), Number(after.id)));
    },
  };
}

export const projectHooksByEntity: Readonly<Record<string, EntityHooks>> = {
  [projectEntity.name]: projectHooks(projectEntity, feeProjects),
  [serviceProjectEntity.name]: projectHooks(serviceProjectEntity, providerFeeProjects),
};
