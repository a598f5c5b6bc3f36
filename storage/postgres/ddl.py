"""PL/pgSQL pieces the PostgreSQL migrations share."""

TIME = r"'^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$'"
"""The pattern of the stored UTC times (``YYYY-MM-DDTHH:MM:SS.ffffffZ``), for their checks."""


def refuse(name: str, event: str, table: str, condition: str, message: str) -> str:
    """A trigger that aborts the statement with ``message`` when ``condition`` holds."""
    return f"""
CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF {condition} THEN
        RAISE EXCEPTION '{message}' USING ERRCODE = '23000';
    END IF;
    IF TG_OP = 'DELETE' THEN
        RETURN OLD;
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER {name} {event} ON {table} FOR EACH ROW EXECUTE FUNCTION {name}();
"""
