-- Usernames are unique without regard to case and Unicode width (NFKC, lower case), and logins are matched that
-- way. A database holding accounts whose usernames differ only so cannot take the unique index: the migration
-- stops, naming them, and nothing changes until all but one of each group are renamed (e.g. UPDATE users SET
-- username = 'sysadmin_2' WHERE id = ...); which account keeps the name is the operator's decision, not ours.
DO $$
DECLARE
  clashes text;
BEGIN
  SELECT string_agg(names, '; ') INTO clashes FROM (
    SELECT string_agg(format('%s (id %s)', username, id), ', ' ORDER BY id) AS names
    FROM users
    GROUP BY lower(normalize(username, NFKC))
    HAVING count(*) > 1
  ) AS groups;
  IF clashes IS NOT NULL THEN
    RAISE EXCEPTION 'Usernames must differ by more than case or character width; rename all but one of each group before upgrading: %', clashes;
  END IF;
END
$$;--> statement-breakpoint
ALTER TABLE "users" DROP CONSTRAINT "users_username_unique";--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_normalised_unique" ON "users" USING btree (lower(normalize("username", NFKC)));
