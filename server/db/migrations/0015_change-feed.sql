-- The live change feed (issue 46, docs/sync-protocol.md "Live changes"): each new version of a
-- patient's records tells every instance listening, when its transaction commits, which patient
-- changed. The payload is the patient's id and nothing else: no health data. PostgreSQL folds
-- identical notifications of one transaction, so a batch of writes is one signal.
CREATE OR REPLACE FUNCTION eddy_next_version(p uuid) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  v bigint;
BEGIN
  INSERT INTO sync_counters AS c (patient_id, version) VALUES (p, 1)
  ON CONFLICT (patient_id) DO UPDATE SET version = c.version + 1
  RETURNING c.version INTO v;
  PERFORM pg_notify('eddy_changes', p::text);
  RETURN v;
END;
$$;
