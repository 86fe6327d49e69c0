// `npm run admin -- <command> [options]`: set up a real deployment (no demo data) from a shell.
// Opens the same database as the server; the embedded one only while the server is stopped.
import { parseArgs } from 'node:util';
import { randomBytes } from 'node:crypto';
import { ConfigError, loadConfig } from '../config.ts';
import { DatabaseDamagedError, DatabaseInUseError, openDatabase, type Db } from '../db/client.ts';
import { hashPassword } from '../lib/crypto.ts';
import { isValidTimeZone } from '../lib/time.ts';
import { SEVERE_LOW_LEVEL } from '../../schemas/admin.ts';
import { patientRepo } from '../repositories/patients.ts';
import { staffMfaRepo } from '../repositories/staff-mfa.ts';
import { staffRepo } from '../repositories/staff.ts';
import { BackupError, backupEmbedded, restoreEmbedded } from './backup.ts';
import { PASSWORD_PROBLEM_MESSAGES, passwordProblem } from '../lib/password-policy.ts';
import { errorMessage } from '../lib/errors.ts';
import { unsafeCharacterIn } from '../../schemas/common.ts';

const USAGE = `Usage: npm run admin -- <command> [options]

Commands:
  create-hospital --name <name> [--time-zone <IANA zone>] [--group <group name>] [--severe-low <mg/dL>]
  set-severe-low  --hospital <hospital name> --severe-low <mg/dL>
                  a reading below this alerts the hospital's staff who turned alerts on (40–70; 54 by default)
  create-admin    --email <email> --name <name> --hospital <hospital name> [--hospital …] [--password <pw>] [--group-admin]
                  --group-admin: the hospital group's administrator, who may also add hospitals
  grant           --email <email> --hospital <hospital name> [--hospital …]
  create-patient  --hosp-no <number> --name <name> --hospital <hospital name> [--password <pw>]
                  [--gender <g>] [--age <years>] [--address <text>] [--time-zone <IANA zone>]
  set-admin-password --email <email> [--password <pw>]
  reset-mfa       --email <email>  an admin who lost their authenticator and recovery codes: turns the
                  second factor off and ends their sessions; their next login sets it up again
  list-hospitals
  backup          --to <file>      the embedded database, while the server is stopped (PostgreSQL: pg_dump)
  restore         --from <file>    into a DATA_DIR that holds no database yet (PostgreSQL: pg_restore)

Passwords that are not given are generated and printed once.`;

class UsageError extends Error {}

const options = {
  name: { type: 'string' },
  email: { type: 'string' },
  password: { type: 'string' },
  hospital: { type: 'string', multiple: true },
  'time-zone': { type: 'string' },
  group: { type: 'string' },
  'hosp-no': { type: 'string' },
  gender: { type: 'string' },
  age: { type: 'string' },
  address: { type: 'string' },
  to: { type: 'string' },
  'severe-low': { type: 'string' },
  from: { type: 'string' },
  'group-admin': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof options; allowPositionals: true }>>['values'];

/** The first option (a password aside: never shown) holding a control character or a text-direction override. */
function unsafeOption(values: Values): string | undefined {
  for (const [key, value] of Object.entries(values)) {
    if (key === 'password') continue;
    for (const text of typeof value === 'string' ? [value] : Array.isArray(value) ? value : []) {
      const found = unsafeCharacterIn(text);
      if (found) return `--${key} must not contain control characters or text-direction overrides (found ${found})`;
    }
  }
  return undefined;
}

function need(values: Values, key: 'name' | 'email' | 'hosp-no'): string {
  const v = values[key]?.trim();
  if (!v) throw new UsageError(`--${key} is required`);
  return v;
}

/** The password given (checked as a patient's new one is, against the account's own words), or a random one. */
function passwordOrGenerated(values: Values, context: readonly (string | undefined)[]): { password: string; generated: boolean } {
  if (values.password !== undefined) {
    const problem = passwordProblem(values.password, context);
    if (problem) throw new UsageError(`--password: ${PASSWORD_PROBLEM_MESSAGES[problem]}`);
    return { password: values.password, generated: false };
  }
  return { password: randomBytes(12).toString('base64url'), generated: true };
}

async function hospitalIds(db: Db, names: string[] | undefined): Promise<string[]> {
  if (!names?.length) throw new UsageError('--hospital is required');
  const ids = [];
  for (const name of names) {
    const h = await staffRepo.hospitalByName(db, name);
    if (!h) throw new UsageError(`No hospital named "${name}". Create it first with create-hospital.`);
    ids.push(h.id);
  }
  return ids;
}

function timeZoneOf(values: Values): string | undefined {
  const tz = values['time-zone'];
  if (tz !== undefined && !isValidTimeZone(tz)) throw new UsageError(`--time-zone "${tz}" is not an IANA time zone (for example Europe/London)`);
  return tz;
}

function severeLowOf(values: Values): number | undefined {
  const text = values['severe-low']?.trim();
  if (text === undefined) return undefined;
  const level = Number(text);
  if (text === '' || !Number.isFinite(level) || level < SEVERE_LOW_LEVEL.min || level > SEVERE_LOW_LEVEL.max) {
    throw new UsageError(`--severe-low must be a number of mg/dL from ${SEVERE_LOW_LEVEL.min} to ${SEVERE_LOW_LEVEL.max}`);
  }
  return level;
}

async function run(command: string | undefined, values: Values, db: Db, out: (line: string) => void): Promise<void> {
  switch (command) {
    case 'create-hospital': {
      const name = need(values, 'name');
      if (await staffRepo.hospitalByName(db, name)) throw new UsageError(`A hospital named "${name}" already exists`);
      const groupId = values.group ? await staffRepo.ensureGroup(db, values.group) : null;
      const tz = timeZoneOf(values);
      const level = severeLowOf(values);
      const h = await staffRepo.insertHospital(db, {
        name,
        groupId,
        ...(tz ? { timeZone: tz } : {}),
        ...(level !== undefined ? { severeLowMgDl: level } : {}),
      });
      out(`Created hospital "${h.name}" (${h.id}, time zone ${h.timeZone}, severe-low alerts below ${h.severeLowMgDl} mg/dL)`);
      return;
    }
    case 'set-severe-low': {
      const [hospitalId] = await hospitalIds(db, values.hospital?.slice(0, 1));
      const level = severeLowOf(values);
      if (!hospitalId || level === undefined) throw new UsageError('--hospital and --severe-low are required');
      const h = await staffRepo.updateHospital(db, hospitalId, { severeLowMgDl: level });
      out(`"${h?.name ?? '?'}": severe-low alerts below ${level} mg/dL`);
      return;
    }
    case 'create-admin': {
      const email = need(values, 'email').toLowerCase();
      const name = need(values, 'name');
      const ids = await hospitalIds(db, values.hospital);
      if (await staffRepo.adminByEmail(db, email)) throw new UsageError(`An admin with e-mail ${email} already exists`);
      const { password, generated } = passwordOrGenerated(values, [email, name]);
      const groupAdmin = values['group-admin'] === true;
      const admin = await staffRepo.insertAdmin(db, { email, name, passwordHash: await hashPassword(password), groupAdmin });
      await staffRepo.grantHospitals(db, admin.id, ids);
      out(`Created ${groupAdmin ? 'group admin' : 'admin'} ${email} for ${values.hospital?.join(', ')}`);
      if (generated) out(`Password (shown once): ${password}`);
      return;
    }
    case 'grant': {
      const admin = await staffRepo.adminByEmail(db, need(values, 'email'));
      if (!admin) throw new UsageError('No admin with that e-mail');
      const ids = await hospitalIds(db, values.hospital);
      await staffRepo.grantHospitals(db, admin.id, ids);
      out(`${admin.email} can now see ${values.hospital?.join(', ')}`);
      // A hospital that asks its staff for a second factor: a session opened without one does not reach it.
      const asking = (await staffRepo.hospitalsByIds(db, ids)).filter((h) => h.requireStaffMfa);
      if (asking.length > 0 && (await staffMfaRepo.endAdminSessionsWithoutSecondFactor(db, admin.id, new Date())) > 0)
        out(`${asking.map((h) => h.name).join(', ')} asks for a second factor: ${admin.email}'s sessions without one have ended.`);
      return;
    }
    case 'reset-mfa': {
      const admin = await staffRepo.adminByEmail(db, need(values, 'email'));
      if (!admin) throw new UsageError('No admin with that e-mail');
      await staffMfaRepo.reset(db, admin.id);
      await staffMfaRepo.endOtherSessions(db, admin.id, undefined);
      out(`${admin.email}: two-step sign-in reset and every session ended; the next login sets it up again where a hospital asks for it`);
      return;
    }
    case 'create-patient': {
      const hospNo = need(values, 'hosp-no');
      if (!/^[A-Za-z0-9][A-Za-z0-9/._-]{0,31}$/.test(hospNo)) throw new UsageError('--hosp-no must be letters, digits and - / . _ (up to 32 characters)');
      const [hospitalId] = await hospitalIds(db, values.hospital?.slice(0, 1));
      if (!hospitalId) throw new UsageError('--hospital is required');
      if (await patientRepo.byHospNo(db, hospNo)) throw new UsageError(`A patient with hospital number ${hospNo} already exists`);
      const age = values.age === undefined ? null : Number(values.age);
      if (age !== null && (!Number.isInteger(age) || age < 0 || age > 130)) throw new UsageError('--age must be a whole number from 0 to 130');
      const [hospital] = await staffRepo.hospitalsByIds(db, [hospitalId]);
      const { password, generated } = passwordOrGenerated(values, [hospNo, values.name]);
      await patientRepo.insert(db, {
        hospNo,
        hospitalId,
        name: need(values, 'name'),
        gender: values.gender ?? null,
        age,
        address: values.address ?? null,
        timeZone: timeZoneOf(values) ?? hospital?.timeZone ?? 'UTC',
        passwordHash: await hashPassword(password),
        mustChangePassword: generated,
      });
      out(`Created patient ${hospNo} at ${hospital?.name}`);
      if (generated) out(`Temporary password (shown once; the patient is asked to change it): ${password}`);
      return;
    }
    case 'set-admin-password': {
      const admin = await staffRepo.adminByEmail(db, need(values, 'email'));
      if (!admin) throw new UsageError('No admin with that e-mail');
      const { password, generated } = passwordOrGenerated(values, [admin.email, admin.name]);
      await staffRepo.setAdminPassword(db, admin.id, await hashPassword(password));
      out(`Password of ${admin.email} changed`);
      if (generated) out(`New password (shown once): ${password}`);
      return;
    }
    case 'list-hospitals': {
      const all = await db.query.hospitals.findMany();
      if (all.length === 0) out('No hospitals yet. Create one with create-hospital.');
      for (const h of all) out(`${h.name}\t${h.timeZone}\tsevere low < ${h.severeLowMgDl} mg/dL\t${h.id}`);
      return;
    }
    default:
      throw new UsageError(command ? `Unknown command "${command}"` : 'No command given');
  }
}

export async function adminCli(argv: string[], env: NodeJS.ProcessEnv, out: (line: string) => void): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (err) {
    out(`${errorMessage(err)}\n\n${USAGE}`);
    return 2;
  }
  if (parsed.values.help) {
    out(USAGE);
    return 0;
  }
  // What is typed here is shown to staff as what is typed in the app is: the same characters are refused (server/http/plain-text.ts).
  const unsafe = unsafeOption(parsed.values);
  if (unsafe) {
    out(`${unsafe}\n\n${USAGE}`);
    return 2;
  }
  const config = loadConfig(env);
  const command = parsed.positionals[0];
  if (command === 'backup' || command === 'restore') {
    const file = command === 'backup' ? parsed.values.to : parsed.values.from;
    if (!file) {
      out(`--${command === 'backup' ? 'to' : 'from'} <file> is required\n\n${USAGE}`);
      return 2;
    }
    try {
      out(command === 'backup' ? await backupEmbedded(config, file) : await restoreEmbedded(config, file));
      return 0;
    } catch (err) {
      if (!(err instanceof BackupError)) throw err;
      out(err.message);
      return 1;
    }
  }
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMax: 2 });
  try {
    await database.migrate();
    await run(command, parsed.values, database.db, out);
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      out(`${err.message}\n\n${USAGE}`);
      return 2;
    }
    throw err;
  } finally {
    await database.close();
  }
}

if (import.meta.main) {
  adminCli(process.argv.slice(2), process.env, (line) => process.stdout.write(`${line}\n`)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      const message =
        err instanceof ConfigError || err instanceof DatabaseInUseError || err instanceof DatabaseDamagedError
          ? err.message
          : err instanceof Error
            ? (err.stack ?? err.message)
            : String(err);
      process.stderr.write(`${message}\n`);
      process.exit(1);
    },
  );
}
