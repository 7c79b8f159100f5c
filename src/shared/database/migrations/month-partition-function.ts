/**
 * ensure_month_partition(parent, column, month): creates the partition of the UTC month that
 * `month` falls in, unless it or the legacy partition covers it, and returns whether it did. It is built beside the parent
 * (`CREATE TABLE ... (LIKE parent INCLUDING ...)`, with the properties `including` names) and
 * ATTACHed (SHARE UPDATE EXCLUSIVE on the parent: writes go on), taking over the rows the default
 * partition held for that month. Migrations define it (1765200000000) and redefine it (1765400000000).
 */
export const monthPartitionFunction = (including: readonly string[]) => `
  CREATE OR REPLACE FUNCTION ensure_month_partition(parent text, time_column text, month timestamptz) RETURNS boolean
  LANGUAGE plpgsql AS $$
  DECLARE
    lower timestamptz := date_trunc('month', month AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
    upper timestamptz := (date_trunc('month', month AT TIME ZONE 'UTC') + interval '1 month') AT TIME ZONE 'UTC';
    name text := parent || '_p' || to_char(month AT TIME ZONE 'UTC', 'YYYYMM');
  BEGIN
    -- Only reads when the month is there (or inside the legacy partition): the daily check takes
    -- no transaction id, which the audit log's and the change feed's commit order would wait for.
    IF to_regclass(name) IS NOT NULL OR EXISTS (
      SELECT 1 FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid, pg_get_expr(c.relpartbound, c.oid) AS bound
      WHERE i.inhparent = parent::regclass AND bound <> 'DEFAULT'
        AND (regexp_match(bound, 'TO \\(''([^'']+)''\\)'))[1]::timestamptz > lower
        AND coalesce((regexp_match(bound, 'FROM \\(''([^'']+)''\\)'))[1]::timestamptz, '-infinity') < upper
    ) THEN
      RETURN false;
    END IF;
    EXECUTE format('CREATE TABLE %I (LIKE %I ${including.map((property) => `INCLUDING ${property}`).join(' ')})', name, parent);
    EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I CHECK (%I >= %L AND %I < %L)', name, name || '_range', time_column, lower, time_column, upper);
    EXECUTE format('WITH moved AS (DELETE FROM %I WHERE %I >= %L AND %I < %L RETURNING *) INSERT INTO %I SELECT * FROM moved',
      parent || '_default', time_column, lower, time_column, upper, name);
    EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', parent, name, lower, upper);
    EXECUTE format('ALTER TABLE %I DROP CONSTRAINT %I', name, name || '_range');
    RETURN true;
  END $$`;
