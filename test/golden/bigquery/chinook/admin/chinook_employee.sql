-- role: admin
-- root field: chinook_employee (select on chinook.employee)
-- query: query { chinook_employee { employee_id last_name first_name title reports_to birth_date hire_date address city state country postal_code phone fax email } }
-- template (precompiled in engine.mjs; the statement completes it with the request's selection and arguments):
--   from: `chinook.employee`; filter: none (every row)
--   columns: employee_id, last_name, first_name, title, reports_to, birth_date, hire_date, address, city, state, country, postal_code, phone, fax, email; row limit: none
SELECT (
  SELECT `_g_1`.`__v`
  FROM (
    SELECT ARRAY_AGG(`_n_1`.`__v`
      ORDER BY `_n_1`.`__rn`) AS `__v`
    FROM (
      SELECT `_base_1`.*, ROW_NUMBER() OVER () AS `__rn`
      FROM (
        SELECT STRUCT(`_employee_1`.`employee_id` AS `f0`, `_employee_1`.`last_name` AS `f1`, `_employee_1`.`first_name` AS `f2`, `_employee_1`.`title` AS `f3`, `_employee_1`.`reports_to` AS `f4`, `_employee_1`.`birth_date` AS `f5`, `_employee_1`.`hire_date` AS `f6`, `_employee_1`.`address` AS `f7`, `_employee_1`.`city` AS `f8`, `_employee_1`.`state` AS `f9`, `_employee_1`.`country` AS `f10`, `_employee_1`.`postal_code` AS `f11`, `_employee_1`.`phone` AS `f12`, `_employee_1`.`fax` AS `f13`, `_employee_1`.`email` AS `f14`) AS `__v`
        FROM `chinook.employee` AS `_employee_1`
        WHERE TRUE) AS `_base_1`) AS `_n_1`) AS `_g_1`) AS `f0`;
