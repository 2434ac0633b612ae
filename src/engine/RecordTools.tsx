/**
 * An entity's record tools (`recordTools`, src/domains/index.ts): a button per tool on a record's row, card and
 * detail page, and the tool's dialog for the record it was pressed on, loaded when first opened; and its list tools
 * (`listTools`), buttons of its list page.
 */
import { Button } from "antd";
import { UploadOutlined } from "@ant-design/icons";
import { Suspense, useState, type ReactNode } from "react";
import { useTranslation, type BaseRecord } from "@refinedev/core";
import type { EntityDecl } from "../../common/catalogue";
import { listTools, recordTools } from "../domains";
import type { CardButton } from "./RecordCard";

export function useRecordTools(entity: EntityDecl): { buttonsOf: (record: BaseRecord) => CardButton[]; dialog: ReactNode } {
  const { translate } = useTranslation();
  const [open, setOpen] = useState<{ tool: string; record: BaseRecord } | null>(null);
  const buttonsOf = (record: BaseRecord): CardButton[] =>
    (entity.recordTools ?? []).map((tool) => {
      const label = translate(recordTools[tool].label);
      return {
        key: `tool-${tool}`,
        label,
        node: (
          <Button size="small" data-testid={`row-${tool}-${String(record.id)}`} onClick={() => setOpen({ tool, record })}>
            {label}
          </Button>
        ),
      };
    });
  const Dialog = open ? recordTools[open.tool].dialog : undefined;
  const dialog = Dialog && open ? (
    <Suspense fallback={null}>
      <Dialog record={open.record} onClose={() => setOpen(null)} />
    </Suspense>
  ) : null;
  return { buttonsOf, dialog };
}

/**
 * An entity's list tools (`listTools`): a button each on its list page, and the dialog of the one pressed, given the
 * filters the page always sends (one log of several imports: which one this page is).
 */
export function ListTools({ entity, filters }: { entity: EntityDecl; filters?: Record<string, string> }) {
  const { translate } = useTranslation();
  const [open, setOpen] = useState<string | null>(null);
  const opened = open ? listTools[open] : undefined;
  const Dialog = opened && "dialog" in opened ? opened.dialog : undefined;
  return (
    <>
      {(entity.listTools ?? []).map((name) => {
        const tool = listTools[name];
        const Icon = tool.icon ?? UploadOutlined;
        const opens = "href" in tool ? { href: tool.href, target: "_blank", rel: "noopener" } : { onClick: () => setOpen(name) };
        return (
          <Button key={name} icon={<Icon />} data-testid={`list-tool-${name}`} {...opens}>
            {translate(tool.label)}
          </Button>
        );
      })}
      {Dialog && (
        <Suspense fallback={null}>
          <Dialog onClose={() => setOpen(null)} filters={filters} />
        </Suspense>
      )}
    </>
  );
}
