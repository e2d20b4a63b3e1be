/**
 * @module The experiments' part of the minute cron's fold (fold.ts, in its transaction): who saw which variant and
 * who converted (docs/experiments.md). Each visitor counts once per experiment, the variant they first saw, and once
 * per goal: a conversion is a goal the visitor reached at or after their first view of the experiment, while the
 * mapping still runs that experiment and measures that goal. A goal may be folded before the view that exposed its
 * visitor (they travel apart): `visitor_goals` keeps each visitor's goals with the last time, so whichever of the
 * two comes second converts. ?1 and ?2 bound the pending rows, as in fold.ts. A mapping's experiment is read from its
id and goals columns (db/raw.ts), never parsed here: one customer's experiment cannot fail everyone's fold. Counts are written before the rows
 * they count, so each statement sees only what is new.
 *
 * What strangers can add (docs/experiments.md "Bounds"): visitor ids are the visitors' own, so each address (a day's
 * hash) adds at most `ADDRESS_DAILY_EXPOSURES` visitors to an experiment and `ADDRESS_DAILY_GOALS` goals to a
 * customer a day, and a customer's experiments count at most their plan's `experimentVisitorCap` together; the
 * results show the share the busiest address brought (`top_address`).
 */
import { ADDRESS_DAILY_EXPOSURES, ADDRESS_DAILY_GOALS, EXPERIMENT_MAX_VISITORS } from "#contract/experiments";

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

/**
 * Each visitor's first view of each experiment in the range, with the variant it showed and the address that sent
 * it (`visitor`: the day's keyed hash of the IP address, delivery/page-view.ts). Of the visitors new to an experiment
 * (`admitted`), each address's are counted up to `ADDRESS_DAILY_EXPOSURES` a day with those it brought earlier that
 * day (the hash is the day's), and the customer's up to their cap (?4: `experimentVisitorCap` per customer, fold.ts)
 * with what their runs in `experiment_runs` counted before this fold (`visitors_before` once this fold's `COUNT_RUN`
 * wrote it); the others are not counted at all. A view without an address (local development) is not held to an
 * address's bound.
 */
const FIRST_VIEWS = `WITH ${EVENTS},
  seen AS (
    SELECT user_id, e ->> 'experiment' AS experiment, e ->> 'vid' AS vid, e ->> 'variant' AS variant,
      coalesce(e ->> 'exposedMapping', e ->> 'mappingId') AS mapping_id, e ->> 'timestamp' AS ts, e ->> 'visitor' AS address,
      e ->> 'seg' AS seg
    FROM events WHERE e ->> 'experiment' IS NOT NULL AND e ->> 'vid' IS NOT NULL
  ),
  first AS (
    SELECT experiment, vid, user_id, mapping_id, variant, min(ts) AS ts, address, seg FROM seen GROUP BY experiment, vid
  ),
  fresh AS (
    SELECT first.*, row_number() OVER (PARTITION BY experiment, address ORDER BY ts, vid) AS address_rank
    FROM first
    WHERE NOT EXISTS (SELECT 1 FROM experiment_exposures x WHERE x.experiment = first.experiment AND x.visitor = first.vid)
  ),
  within_address AS (
    SELECT fresh.*, row_number() OVER (PARTITION BY user_id ORDER BY ts, experiment, vid) AS customer_rank
    FROM fresh
    WHERE address IS NULL OR address_rank + (SELECT count(*) FROM experiment_exposures x
      WHERE x.experiment = fresh.experiment AND x.address = fresh.address) <= ${ADDRESS_DAILY_EXPOSURES}
  ),
  kept AS (
    SELECT r.user_id, sum(CASE WHEN r.counted_seq = ?2 THEN r.visitors_before ELSE r.visitors END) AS visitors
    FROM experiment_runs r WHERE r.user_id IN (SELECT user_id FROM within_address) GROUP BY r.user_id
  ),
  admitted AS (
    SELECT w.experiment, w.vid, w.user_id, w.mapping_id, w.variant, w.ts, w.address, w.seg
    FROM within_address w LEFT JOIN kept k ON k.user_id = w.user_id
    WHERE w.customer_rank + coalesce(k.visitors, 0)
      <= coalesce(?4 ->> ('$."' || w.user_id || '"'), ${EXPERIMENT_MAX_VISITORS})
  )`;

const COUNT_VISITORS = `${FIRST_VIEWS}
  INSERT INTO experiment_stats (experiment, variant, goal, user_id, count)
  SELECT experiment, variant, '', user_id, count(*) FROM admitted WHERE true
  GROUP BY experiment, variant
  ON CONFLICT (experiment, variant, goal) DO UPDATE SET count = count + excluded.count`;

/**
 * The rows of `from` (with experiment, variant, user_id and seg) once per segment dimension, with the value its
 * code holds (contract/segments.ts `encodeSegment`: device, referrer type, country); `goal` their goal ('' visitors).
 */
const perSegment = (from: string, goal: string) =>
  [
    ["device", 1, 1],
    ["referrer", 2, 1],
    ["country", 3, 2],
  ]
    .map(
      ([dimension, start, length]) => `SELECT experiment, variant, ${goal} AS goal, user_id,
        '${dimension}' AS dimension, substr(seg, ${start}, ${length}) AS value FROM ${from} WHERE seg IS NOT NULL`,
    )
    .join(" UNION ALL ");

/** The admitted visitors per segment value (docs/experiments.md, "Results by segment"). */
const COUNT_SEGMENT_VISITORS = `${FIRST_VIEWS},
  segments AS (${perSegment("admitted", "''")})
  INSERT INTO experiment_segment_stats (experiment, variant, goal, dimension, value, user_id, count)
  SELECT experiment, variant, goal, dimension, value, user_id, count(*) FROM segments WHERE true
  GROUP BY experiment, variant, dimension, value
  ON CONFLICT (experiment, dimension, variant, goal, value) DO UPDATE SET count = count + excluded.count`;

/** The runs' visitors and when one was last new (retention.ts purges a run no mapping runs 90 days after). */
const COUNT_RUN = `${FIRST_VIEWS}
  INSERT INTO experiment_runs (experiment, user_id, mapping_id, visitors, visitors_before, counted_seq, last_seen)
  SELECT experiment, user_id, mapping_id, count(*), 0, ?2, max(ts) FROM admitted WHERE true GROUP BY experiment
  ON CONFLICT (experiment) DO UPDATE SET
    visitors_before = CASE WHEN counted_seq = excluded.counted_seq THEN visitors_before ELSE visitors END,
    visitors = visitors + excluded.visitors, counted_seq = excluded.counted_seq,
    last_seen = max(last_seen, excluded.last_seen), mapping_id = excluded.mapping_id`;

/** The admitted visitors' rows; a visitor counted before keeps the earliest time they were seen. */
const EXPOSE = `${FIRST_VIEWS}
  INSERT INTO experiment_exposures (experiment, visitor, user_id, mapping_id, variant, first_seen, address, segment)
  SELECT experiment, vid, user_id, mapping_id, variant, ts, address, seg FROM admitted
  UNION ALL
  SELECT experiment, vid, user_id, mapping_id, variant, ts, address, seg FROM first
  WHERE EXISTS (SELECT 1 FROM experiment_exposures x WHERE x.experiment = first.experiment AND x.visitor = first.vid)
  ON CONFLICT (experiment, visitor) DO UPDATE SET first_seen = excluded.first_seen
  WHERE excluded.first_seen < experiment_exposures.first_seen`;

/** Per variant, the most visitors one of the range's addresses brought (that day), kept if it is the most yet. */
const TOP_VISITORS = `${FIRST_VIEWS},
  touched AS (SELECT DISTINCT experiment, address FROM first WHERE address IS NOT NULL),
  per_address AS (
    SELECT x.experiment, x.variant, count(*) AS n
    FROM touched t JOIN experiment_exposures x ON x.experiment = t.experiment AND x.address = t.address
    GROUP BY x.experiment, x.address, x.variant
  ),
  top AS (SELECT experiment, variant, max(n) AS n FROM per_address GROUP BY experiment, variant)
  UPDATE experiment_stats SET top_address = max(top_address, top.n) FROM top
  WHERE experiment_stats.experiment = top.experiment AND experiment_stats.variant = top.variant
    AND experiment_stats.goal = ''`;

/**
 * The goals reached, each visitor's last time per goal. A goal new to the customer counts only within its address's
 * `ADDRESS_DAILY_GOALS` of the day (those it sent earlier that day included); a goal known already only moves its
 * time.
 */
const REACH = `WITH ${EVENTS},
  reached AS (
    SELECT user_id, e ->> 'vid' AS vid, e ->> 'goal' AS goal, max(e ->> 'timestamp') AS ts, e ->> 'visitor' AS address
    FROM events WHERE e ->> 'goal' IS NOT NULL GROUP BY user_id, vid, goal
  ),
  known AS (
    SELECT reached.*, EXISTS (SELECT 1 FROM visitor_goals g
      WHERE g.user_id = reached.user_id AND g.visitor = reached.vid AND g.goal = reached.goal) AS old
    FROM reached
  ),
  fresh AS (
    SELECT known.*, row_number() OVER (PARTITION BY user_id, address ORDER BY ts, vid, goal) AS address_rank
    FROM known WHERE NOT old
  )
  INSERT INTO visitor_goals (user_id, visitor, goal, last_at, address)
  SELECT user_id, vid, goal, ts, address FROM fresh
  WHERE address IS NULL OR address_rank + (SELECT count(*) FROM visitor_goals g
    WHERE g.user_id = fresh.user_id AND g.address = fresh.address) <= ${ADDRESS_DAILY_GOALS}
  UNION ALL
  SELECT user_id, vid, goal, ts, address FROM known WHERE old
  ON CONFLICT (user_id, visitor, goal) DO UPDATE SET last_at = max(visitor_goals.last_at, excluded.last_at)`;

/** The conversions of every visitor the range saw or heard of, against the experiments their mappings still run. */
const CONVERTED = `WITH ${EVENTS},
  touched AS (SELECT DISTINCT user_id, e ->> 'vid' AS vid FROM events WHERE e ->> 'vid' IS NOT NULL),
  converted AS (
    SELECT x.experiment, x.visitor, g.goal, x.user_id, x.variant, x.segment AS seg
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

/** The new conversions per segment value of their visitor's first view. */
const COUNT_SEGMENT_CONVERSIONS = `${CONVERTED},
  new_conversions AS (
    SELECT * FROM converted WHERE NOT EXISTS (SELECT 1 FROM experiment_conversions c
      WHERE c.experiment = converted.experiment AND c.visitor = converted.visitor AND c.goal = converted.goal)
  ),
  segments AS (${perSegment("new_conversions", "goal")})
  INSERT INTO experiment_segment_stats (experiment, variant, goal, dimension, value, user_id, count)
  SELECT experiment, variant, goal, dimension, value, user_id, count(*) FROM segments WHERE true
  GROUP BY experiment, variant, goal, dimension, value
  ON CONFLICT (experiment, dimension, variant, goal, value) DO UPDATE SET count = count + excluded.count`;

const CONVERT = `${CONVERTED}
  INSERT INTO experiment_conversions (experiment, visitor, goal, user_id, variant)
  SELECT experiment, visitor, goal, user_id, variant FROM converted WHERE true
  ON CONFLICT (experiment, visitor, goal) DO NOTHING`;

/**
 * Per variant and goal, the most conversions of visitors one of the range's converting addresses brought (that day),
 * kept if it is the most yet: a conversion counts for the address that exposed its visitor.
 */
const TOP_CONVERSIONS = `${CONVERTED},
  converting AS (
    SELECT DISTINCT c.experiment, x.address FROM converted c
    JOIN experiment_exposures x ON x.experiment = c.experiment AND x.visitor = c.visitor
    WHERE x.address IS NOT NULL
  ),
  per_address AS (
    SELECT x.experiment, x.variant, k.goal, count(*) AS n
    FROM converting t JOIN experiment_exposures x ON x.experiment = t.experiment AND x.address = t.address
    JOIN experiment_conversions k ON k.experiment = x.experiment AND k.visitor = x.visitor
    GROUP BY x.experiment, x.address, x.variant, k.goal
  ),
  top AS (SELECT experiment, variant, goal, max(n) AS n FROM per_address GROUP BY experiment, variant, goal)
  UPDATE experiment_stats SET top_address = max(top_address, top.n) FROM top
  WHERE experiment_stats.experiment = top.experiment AND experiment_stats.variant = top.variant
    AND experiment_stats.goal = top.goal`;

/** In this order: each count before the rows it counts, the tops after them. */
const EXPERIMENT_COUNTING = [
  COUNT_VISITORS,
  COUNT_SEGMENT_VISITORS,
  COUNT_RUN,
  EXPOSE,
  TOP_VISITORS,
  REACH,
  COUNT_CONVERSIONS,
  COUNT_SEGMENT_CONVERSIONS,
  CONVERT,
  TOP_CONVERSIONS,
];

/**
 * The statements that count pending rows `from` to `to`, in order, of the customers `only` (a JSON array; null for
 * all); `caps` is each customer's `experimentVisitorCap` as a JSON object (bound only where the statement reads it).
 */
export const experimentCounting = (
  d1: D1Database,
  from: number,
  to: number,
  only: string | null,
  caps: string,
): D1PreparedStatement[] =>
  EXPERIMENT_COUNTING.map((sql) => d1.prepare(sql).bind(from, to, only, ...(sql.includes("?4") ? [caps] : [])));
