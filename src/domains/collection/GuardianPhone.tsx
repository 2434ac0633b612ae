/**
 * A guardian's mobile number on the activity's board: masked as the arrears list gives it (138****5678), shown whole
 * on a click, which asks the server (`guardianphone`: the bill's tenant checked, the viewing audited).
 */
import { EyeOutlined } from "@ant-design/icons";
import { Button, Space, Tooltip } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { scope } from "../../../providers/dataProvider";
import { weapi } from "../../../providers/weapi";

export function GuardianPhone({ billId, name, masked }: { billId: number; name: string | null; masked: string | null }) {
  const { t } = useTranslation();
  const [whole, setWhole] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const reveal = async () => {
    setAsking(true);
    try {
      const res = await weapi<{ items?: { guardian_phone: string | null } }>("adminapiv2", "guardianphone", { ...scope(), id: billId });
      if (res.return_code === "SUCCESS") setWhole(res.data?.items?.guardian_phone ?? "");
    } catch {
      // the client showed the error
    } finally {
      setAsking(false);
    }
  };
  return (
    <Space size={4} wrap={false}>
      {name && <span>{name}</span>}
      {masked && <span data-testid={`guardian-phone-${billId}`}>{whole ?? masked}</span>}
      {masked && whole === null && (
        <Tooltip title={t("notices.arrears.show_phone")}>
          <Button type="link" size="small" icon={<EyeOutlined />} loading={asking} aria-label={t("notices.arrears.show_phone")} onClick={() => void reveal()} data-testid={`guardian-phone-show-${billId}`} />
        </Tooltip>
      )}
    </Space>
  );
}
