import { Writable } from "node:stream";
import ExcelJS from "exceljs";
for (const opts of [{ useStyles: true, useSharedStrings: false }, { useStyles: false, useSharedStrings: false }, {}]) {
  let bytes = 0;
  const sink = new Writable({ write(chunk, _e, done) { bytes += chunk.length; setTimeout(done, 1); } });
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: sink, ...opts });
  const sheet = wb.addWorksheet("x");
  sheet.columns = [{ header: "a", key: "a" }, { header: "b", key: "b" }];
  const seen: number[] = [];
  for (let i = 0; i < 40000; i++) {
    sheet.addRow({ a: `row number ${i} with some text`, b: i }).commit();
    if (i % 10000 === 0) { await new Promise((r) => setTimeout(r, 20)); seen.push(bytes); }
  }
  sheet.commit();
  await wb.commit();
  console.log(JSON.stringify(opts), seen, "end", bytes);
}
