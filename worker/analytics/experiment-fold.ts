/**
 * @module The experiments' part of the minute cron's fold (fold.ts, in its transaction): who saw which variant and
 * who converted (docs/experiments.md). Each visitor counts once per experiment, the variant they first saw, and once
 * per goal: a conversion is a goal the visitor reached at or after their first view of the experiment, while the
 * mapping still runs that experiment and measures that goal. A goal may be folded before the view that exposed its
 * visitor (they travel apart): `visitor_goals` keeps each visitor's goals with the last time, so whichever of the
 * two comes second converts. ?1 and ?2 bound the pending rows, as in fold.ts. A mapping's experiment is read from its
id and goals columns (db/raw.ts), never parsed here: one customer's experiment cannot fail everyone's fold. Counts are written before the rows
 * they count, so each statement sees only what is new.
 */

/**
 * Whether the customer `userId` (an SQL expression) is one the statement counts: ?3 is null when it counts the whole
 * range, or a JSON array of ids when a probe (quarantine.ts) tries some customers alone.
 */
export const countedCustomer = (userId: string) => `(?3 IS NULL OR ${userId} IN (SELECT value FROM json_each(?3)))`;

/** The range's events of existing customers. */
const EVENTS = `events AS (
    SELECT v.value AS e, v.value ->> 'userId' AS user_id
    FROM analytics_pending p, json_each(p.events) v
    WHERE p.seq BETWEEN ?1 AND ?2 AND EXISTS (SELECT 1 FROM users WHERE users.id = v.value ->> 'userId')
      AND ${countedCustomer("v.value ->> 'userId'")}
  )`;

/** Each visitor's first view of each experiment in the range, and the variant it showed. */
const FIRST_VIEWS = `WITH ${EVENTS},
  seen AS (
    SELECT user_id, e ->> 'experiment' AS experiment, e ->> 'vid' AS vid, e ->> 'variant' AS variant,
      e ->> 'mappingId' AS mapping_id, e ->> 'timestamp' AS ts
    FROM events WHERE e ->> 'experiment' IS NOT NULL AND e ->> 'vid' IS NOT NULL
  ),
  first AS (
    SELECT experiment, vid, user_id, mapping_id, variant, min(ts) AS ts FROM seen GROUP BY experiment, vid
  )`;

const COUNT_VISITORS = `${FIRST_VIEWS}
  INSERT INTO experiment_stats (experiment, variant, goal, user_id, count)
  SELECT experiment, variant, '', user_id, count(*) FROM first
  WHERE NOT EXISTS (SELECT 1 FROM experiment_exposures x WHERE x.experiment = first.experiment AND x.visitor = first.vid)
  GROUP BY experiment, variant
  ON CONFLICT (experiment, variant, goal) DO UPDATE SET count = count + excluded.count`;

const EXPOSE = `${FIRST_VIEWS}
  INSERT INTO experiment_exposures (experiment, visitor, user_id, mapping_id, variant, first_seen)
  SELECT experiment, vid, user_id, mapping_id, variant, ts FROM first WHERE true
  ON CONFLICT (experiment, visitor) DO UPDATE SET first_seen = excluded.first_seen
  WHERE excluded.first_seen < experiment_exposures.first_seen`;

const REACH = `WITH ${EVENTS},
  reached AS (
    SELECT user_id, e ->> 'vid' AS vid, e ->> 'goal' AS goal, max(e ->> 'timestamp') AS ts
    FROM events WHERE e ->> 'goal' IS NOT NULL GROUP BY user_id, vid, goal
  )
  INSERT INTO visitor_goals (user_id, visitor, goal, last_at) SELECT user_id, vid, goal, ts FROM reached WHERE true
  ON CONFLICT (user_id, visitor, goal) DO UPDATE SET last_at = max(visitor_goals.last_at, excluded.last_at)`;

/** The conversions of every visitor the range saw or heard of, against the experiments their mappings still run. */
const CONVERTED = `WITH ${EVENTS},
  touched AS (SELECT DISTINCT user_id, e ->> 'vid' AS vid FROM events WHERE e ->> 'vid' IS NOT NULL),
  converted AS (
    SELECT x.experiment, x.visitor, g.goal, x.user_id, x.variant
    FROM touched t
    JOIN experiment_exposures x ON x.user_id = t.user_id AND x.visitor = t.vid
    JOIN visitor_goals g ON g.user_id = t.user_id AND g.visitor = t.vid AND g.last_at >= x.first_seen
    JOIN url_mappings m ON m.id = x.mapping_id AND m.experiment_id = x.experiment
    WHERE EXISTS (SELECT 1 FROM json_each(m.experiment_goals) measured WHERE measured.value = g.goal)
  )`;

const COUNT_CONVERSIONS = `${CONVERTED}
  INSERT INTO experiment_stats (experiment, variant, goal, user_id, count)
  SELECT experiment, variant, goal, user_id, count(*) FROM converted
  WHERE NOT EXISTS (SELECT 1 FROM experiment_conversions c
    WHERE c.experiment = converted.experiment AND c.visitor = converted.visitor AND c.goal = converted.goal)
  GROUP BY experiment, variant, goal
  ON CONFLICT (experiment, variant, goal) DO UPDATE SET count = count + excluded.count`;

const CONVERT = `${CONVERTED}
  INSERT INTO experiment_conversions (experiment, visitor, goal, user_id, variant)
  SELECT experiment, visitor, goal, user_id, variant FROM converted WHERE true
  ON CONFLICT (experiment, visitor, goal) DO NOTHING`;

/** In this order: each count before the rows it counts. */
export const EXPERIMENT_COUNTING = [COUNT_VISITORS, EXPOSE, REACH, COUNT_CONVERSIONS, CONVERT];
