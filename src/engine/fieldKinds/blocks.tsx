/**
 * A DIY page's blocks (server/engine/fieldKinds/lists.ts blocksKind, common/shopDiy.ts): edited beside a phone's
 * preview over the form's whole width (the editor is loaded with the first form showing it); shown elsewhere by their
 * count.
 */
import { lazy, Suspense } from "react";
import { diyBlocks, MAX_DIY_BLOCKS } from "../../../common/shopDiy";
import type { UiFieldKind } from "./kind";

const DiyEditor = lazy(() => import("../diy/DiyEditor"));

export const blocksKind: UiFieldKind = {
  Control: (props) => (
    <Suspense fallback={null}>
      <DiyEditor {...props} />
    </Suspense>
  ),
  rules: (field, t) => [
    {
      validator: (_rule, value: unknown) => {
        if (!Array.isArray(value) || value.length === 0) return Promise.resolve();
        const checked = diyBlocks(value);
        if ("blocks" in checked) return Promise.resolve();
        const label = t(field.label);
        return Promise.reject(new Error(checked.problem === "over_count" ? t("validation.over_count", { label, count: MAX_DIY_BLOCKS }) : t("validation.blocks", { label, index: checked.index })));
      },
    },
  ],
  display: (_field, value, t) => t("diy.block_count", { count: Array.isArray(value) ? value.length : 0 }),
  wide: true,
};
