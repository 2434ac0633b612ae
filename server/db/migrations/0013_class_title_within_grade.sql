-- Two classes of one grade never share a name. A database where some already do (added before this rule) keeps
-- the first of each name as it is and gives each later one its id after the name ("3班 #41"), so that the index
-- can be built and every class stays; a school may rename them afterwards.
UPDATE "classes" AS c
SET "title" = left(c."title", 50 - length(' #' || c."id")) || ' #' || c."id"
FROM (
  SELECT "id", row_number() OVER (PARTITION BY "grade_id", "title" ORDER BY "id") AS n FROM "classes"
) AS d
WHERE d."id" = c."id" AND d.n > 1;--> statement-breakpoint
DROP INDEX "classes_title_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "classes_grade_id_title_unique" ON "classes" USING btree ("grade_id","title");
