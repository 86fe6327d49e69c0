-- Reference lists offered when a patient reports a symptom or a lab test. Hospitals may add rows;
-- these are the common ones in diabetes care.
INSERT INTO "symptom_reference" ("name") VALUES
  ('Blurred vision'), ('Chest pain'), ('Confusion'), ('Dizziness'), ('Excessive thirst'),
  ('Fatigue'), ('Foot pain'), ('Foot ulcer or sore'), ('Frequent urination'), ('Headache'),
  ('Hunger'), ('Irritability'), ('Nausea'), ('Numbness or tingling in feet'), ('Palpitations'),
  ('Shakiness'), ('Shortness of breath'), ('Slow-healing wound'), ('Sweating'), ('Vomiting'),
  ('Weight loss')
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "lab_test_reference" ("name", "unit", "loinc") VALUES
  ('HbA1c', '%', '4548-4'),
  ('Fasting plasma glucose', 'mg/dL', '1558-6'),
  ('Total cholesterol', 'mg/dL', '2093-3'),
  ('LDL cholesterol', 'mg/dL', '13457-7'),
  ('HDL cholesterol', 'mg/dL', '2085-9'),
  ('Triglycerides', 'mg/dL', '2571-8'),
  ('Creatinine', 'mg/dL', '2160-0'),
  ('eGFR', 'mL/min/1.73m2', '33914-3'),
  ('Urine albumin-to-creatinine ratio', 'mg/g', '9318-7'),
  ('Potassium', 'mmol/L', '2823-3'),
  ('TSH', 'mIU/L', '3016-3'),
  ('Vitamin B12', 'pg/mL', '2132-9')
ON CONFLICT DO NOTHING;
