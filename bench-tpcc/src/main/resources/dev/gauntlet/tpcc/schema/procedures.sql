-- The five TPC-C transactions as PL/pgSQL functions: bench-tpcc's procedures mode calls each once per
-- transaction with the inputs the statements mode draws, and they make the same changes as its statements.
-- Installed by 'bench-tpcc init --mode procedures' and by 'run --mode procedures' when missing or out of date
-- (tpcc_procedures_version()). Errors of their own: GT001 = stock rows missing (the 1% New-Orders ending in the
-- unused item id; anything else is damaged data), no_data_found = a district or customer missing.

-- Version 1 took no entry time (it stored now()); the driver now chooses it, to tell its order from another
-- that later took the same key (bench-tpcc's "nothing lost" check).
DROP FUNCTION IF EXISTS tpcc_new_order(int, int, int, int[], int[], int[]);
CREATE OR REPLACE FUNCTION tpcc_new_order(p_w int, p_d int, p_c int, p_items int[], p_supply int[], p_qty int[],
                                          p_entry timestamp)
RETURNS int LANGUAGE plpgsql AS $$
DECLARE
    o int;
    n int := cardinality(p_items);
    stocked int;
    missing text;
BEGIN
    UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = p_w AND d_id = p_d
        RETURNING d_next_o_id - 1 INTO o;
    IF o IS NULL THEN
        RAISE EXCEPTION 'district %/% not found', p_w, p_d USING ERRCODE = 'no_data_found';
    END IF;
    INSERT INTO "order" (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local)
        VALUES (o, p_d, p_w, p_c, p_entry, NULL, n, CASE WHEN p_supply <@ ARRAY[p_w] THEN 1 ELSE 0 END);
    INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (o, p_d, p_w);
    -- The taxes, discount and credit are read as clause 2.4.2.2 says; no terminal shows the total.
    PERFORM c_discount, c_last, c_credit, w_tax FROM customer JOIN warehouse ON w_id = c_w_id
        WHERE c_w_id = p_w AND c_d_id = p_d AND c_id = p_c;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'district or customer %/%/% not found', p_w, p_d, p_c USING ERRCODE = 'no_data_found';
    END IF;
    -- Every line's stock in one key-ordered UPDATE joined with the items (lines come sorted by supplying
    -- warehouse and item, so concurrent orders lock in the same order); the lines from what it returned.
    WITH s AS (
        UPDATE stock SET
            s_quantity = CASE WHEN s_quantity >= v.q + 10 THEN s_quantity - v.q ELSE s_quantity - v.q + 91 END,
            s_ytd = s_ytd + v.q, s_order_cnt = s_order_cnt + 1,
            s_remote_cnt = s_remote_cnt + CASE WHEN v.sw = p_w THEN 0 ELSE 1 END
        FROM unnest(p_items, p_supply, p_qty) AS v(i, sw, q) JOIN item ON i_id = v.i
        WHERE s_i_id = v.i AND s_w_id = v.sw
        RETURNING s_i_id, s_w_id, i_price, CASE p_d WHEN 1 THEN s_dist_01 WHEN 2 THEN s_dist_02
            WHEN 3 THEN s_dist_03 WHEN 4 THEN s_dist_04 WHEN 5 THEN s_dist_05 WHEN 6 THEN s_dist_06
            WHEN 7 THEN s_dist_07 WHEN 8 THEN s_dist_08 WHEN 9 THEN s_dist_09 ELSE s_dist_10 END AS dist)
    INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d,
                            ol_quantity, ol_amount, ol_dist_info)
        SELECT o, p_d, p_w, v.n, v.i, v.sw, NULL, v.q, s.i_price * v.q, s.dist
        FROM unnest(p_items, p_supply, p_qty) WITH ORDINALITY AS v(i, sw, q, n)
        JOIN s ON s.s_i_id = v.i AND s.s_w_id = v.sw;
    GET DIAGNOSTICS stocked = ROW_COUNT;
    IF stocked < n THEN
        -- The caller tells the unused item id (an expected rollback) from damaged data.
        SELECT string_agg(v.i || '@' || v.sw, ',') INTO missing FROM unnest(p_items, p_supply) AS v(i, sw)
            WHERE NOT EXISTS (SELECT 1 FROM stock JOIN item ON i_id = s_i_id WHERE s_i_id = v.i AND s_w_id = v.sw);
        RAISE EXCEPTION 'missing stock: %', missing USING ERRCODE = 'GT001';
    END IF;
    RETURN o;
END $$;

CREATE OR REPLACE FUNCTION tpcc_customer_by_name(p_w int, p_d int, p_last text) RETURNS int
LANGUAGE plpgsql STABLE AS $$
DECLARE
    ids int[];
BEGIN
    SELECT array_agg(c_id ORDER BY c_first, c_id) INTO ids FROM customer
        WHERE c_w_id = p_w AND c_d_id = p_d AND c_last = p_last;
    IF ids IS NULL THEN
        RAISE EXCEPTION 'no customer named % in district %/%', p_last, p_w, p_d USING ERRCODE = 'no_data_found';
    END IF;
    -- Position n/2 rounded up, counting from 1 (clause 2.5.2.2).
    RETURN ids[(cardinality(ids) + 1) / 2];
END $$;

CREATE OR REPLACE FUNCTION tpcc_payment(p_w int, p_d int, p_cw int, p_cd int, p_c int, p_last text,
                                        p_amount numeric)
RETURNS int LANGUAGE plpgsql AS $$
DECLARE
    cid int := CASE WHEN p_last IS NULL THEN p_c ELSE tpcc_customer_by_name(p_cw, p_cd, p_last) END;
    credit text;
BEGIN
    WITH w AS (UPDATE warehouse SET w_ytd = w_ytd + p_amount WHERE w_id = p_w
               RETURNING w_name, w_street_1, w_street_2, w_city, w_state, w_zip),
         d AS (UPDATE district SET d_ytd = d_ytd + p_amount WHERE d_w_id = p_w AND d_id = p_d
               RETURNING d_name, d_street_1, d_street_2, d_city, d_state, d_zip),
         c AS (UPDATE customer SET c_balance = c_balance - p_amount, c_ytd_payment = c_ytd_payment + p_amount,
                   c_payment_cnt = c_payment_cnt + 1,
                   c_data = CASE WHEN c_credit = 'BC' THEN substr(cid || ' ' || p_cd || ' ' || p_cw || ' ' || p_d
                       || ' ' || p_w || ' ' || p_amount || ' | ' || c_data, 1, 500) ELSE c_data END
               WHERE c_w_id = p_cw AND c_d_id = p_cd AND c_id = cid
               RETURNING c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone,
                   c_since, c_credit, c_credit_lim, c_discount, c_balance),
         h AS (INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data)
               SELECT cid, p_cd, p_cw, p_d, p_w, now(), p_amount, substr(w_name || '    ' || d_name, 1, 24)
               FROM w, d RETURNING h_c_id)
    SELECT c.c_credit INTO credit FROM c, h;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'customer %/%/% or district %/% not found', p_cw, p_cd, cid, p_w, p_d
            USING ERRCODE = 'no_data_found';
    END IF;
    RETURN cid;
END $$;

-- STABLE: every statement reads the calling query's snapshot, so the customer and the order agree at READ
-- COMMITTED as they do in the statements mode's single query.
CREATE OR REPLACE FUNCTION tpcc_order_status(p_w int, p_d int, p_c int, p_last text,
                                             OUT customer_id int, OUT order_id int, OUT lines int)
LANGUAGE plpgsql STABLE AS $$
DECLARE
    balance numeric;
    delivered int;
BEGIN
    customer_id := CASE WHEN p_last IS NULL THEN p_c ELSE tpcc_customer_by_name(p_w, p_d, p_last) END;
    SELECT c_balance INTO balance FROM customer WHERE c_w_id = p_w AND c_d_id = p_d AND c_id = customer_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'customer %/%/% not found', p_w, p_d, customer_id USING ERRCODE = 'no_data_found';
    END IF;
    SELECT o_id INTO order_id FROM "order" WHERE o_w_id = p_w AND o_d_id = p_d AND o_c_id = customer_id
        ORDER BY o_id DESC LIMIT 1;
    SELECT count(*), count(ol_delivery_d) INTO lines, delivered FROM order_line
        WHERE ol_w_id = p_w AND ol_d_id = p_d AND ol_o_id = order_id;
END $$;

-- The oldest new order of each of the ten districts; a district whose oldest order a concurrent Delivery took is
-- looked at again (at READ COMMITTED each statement sees what committed before it), one with none is skipped.
CREATE OR REPLACE FUNCTION tpcc_delivery(p_w int, p_carrier int) RETURNS int
LANGUAGE plpgsql AS $$
DECLARE
    delivered int := 0;
    o int;
    cid int;
    amount numeric;
BEGIN
    FOR dd IN 1..10 LOOP
        FOR attempt IN 1..10 LOOP
            SELECT min(no_o_id) INTO o FROM new_order WHERE no_w_id = p_w AND no_d_id = dd;
            EXIT WHEN o IS NULL;
            DELETE FROM new_order WHERE no_w_id = p_w AND no_d_id = dd AND no_o_id = o;
            EXIT WHEN FOUND;
            o := NULL;
        END LOOP;
        CONTINUE WHEN o IS NULL;
        UPDATE "order" SET o_carrier_id = p_carrier WHERE o_w_id = p_w AND o_d_id = dd AND o_id = o
            RETURNING o_c_id INTO cid;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'order %/%/% has a new_order row but no order', p_w, dd, o
                USING ERRCODE = 'no_data_found';
        END IF;
        WITH l AS (UPDATE order_line SET ol_delivery_d = now()
                   WHERE ol_w_id = p_w AND ol_d_id = dd AND ol_o_id = o RETURNING ol_amount)
        SELECT coalesce(sum(ol_amount), 0) INTO amount FROM l;
        UPDATE customer SET c_balance = c_balance + amount, c_delivery_cnt = c_delivery_cnt + 1
            WHERE c_w_id = p_w AND c_d_id = dd AND c_id = cid;
        delivered := delivered + 1;
    END LOOP;
    RETURN delivered;
END $$;

CREATE OR REPLACE FUNCTION tpcc_stock_level(p_w int, p_d int, p_threshold int) RETURNS int
LANGUAGE sql STABLE AS $$
    -- The next order id from scalar subqueries, not a join (StockLevel.java says why).
    SELECT count(DISTINCT s_i_id)::int FROM order_line
    JOIN stock ON s_w_id = ol_w_id AND s_i_id = ol_i_id
    WHERE ol_w_id = p_w AND ol_d_id = p_d
      AND ol_o_id >= (SELECT d_next_o_id - 20 FROM district WHERE d_w_id = p_w AND d_id = p_d)
      AND ol_o_id < (SELECT d_next_o_id FROM district WHERE d_w_id = p_w AND d_id = p_d)
      AND s_quantity < p_threshold
$$;

-- Bump with every change above: 'run --mode procedures' reinstalls when the database has an older version.
CREATE OR REPLACE FUNCTION tpcc_procedures_version() RETURNS int LANGUAGE sql IMMUTABLE AS 'SELECT 3';
