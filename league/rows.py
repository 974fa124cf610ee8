"""Rows read and written by SQL made once for each model, for the busiest requests.

Django builds each statement and each object anew. The night's busiest POST, the deal,
reads the game and its deals and writes three rows (the deal, the game's totals and the
record's line); every request of someone logged in reads their user. The ORM's `save()`
took 0.48-0.59 ms of the app's CPU for each of the deal's writes, against 0.23-0.33 ms
here, and a raw queryset 0.5 ms to make the game from its row. `select`, `insert` and
`update` read and write rows as the ORM does (each value made ready, or read back, by
its own field), from SQL made once, on PostgreSQL and SQLite alike; `deal_written`
writes the deal's three rows in one statement on PostgreSQL. They send no signals:
nothing in the project listens for a save."""

import functools

from django.db import DatabaseError, connection, models


def columns(model, alias: str) -> str:
    """The model's columns, in the order `select` reads them, for a SELECT list."""
    return ", ".join(f"{alias}.{_quoted(field.column)}" for field in model._meta.concrete_fields)


def select(model, sql: str, params, extra: tuple[str, ...] = ()) -> list[models.Model]:
    """The rows `sql` reads as instances of `model`, as a queryset would make them:
    `sql` reads `columns(model, alias)` first, then one column for each name in `extra`,
    set on each instance as it comes."""
    width = len(model._meta.concrete_fields)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        found = cursor.fetchall()
    made = []
    for row in found:
        values = list(row[:width])
        for index, expression, convert in _converters(model):
            values[index] = convert(values[index], expression, connection)
        instance = model.from_db(connection.alias, None, values)
        for name, value in zip(extra, row[width:], strict=True):
            setattr(instance, name, value)
        made.append(instance)
    return made


def insert(instance: models.Model) -> models.Model:
    """Write `instance` as a new row, as `instance.save()` would; it is given its id."""
    with connection.cursor() as cursor:
        cursor.execute(_insert_sql(type(instance)), _insert_values(instance))
        instance.pk = cursor.fetchone()[0]
    return _saved(instance)


def update(instance: models.Model, names: tuple[str, ...]) -> None:
    """Write the fields `names` of `instance` to its row, as `save(update_fields=names)`."""
    model = type(instance)
    with connection.cursor() as cursor:
        cursor.execute(_update_sql(model, names), [*_update_values(instance, names), instance.pk])
        if cursor.rowcount != 1:
            raise DatabaseError(f"{model.__name__} {instance.pk} is not there to update.")


def deal_written(deal, game, names: tuple[str, ...], line, also: str, also_params) -> tuple:
    """PostgreSQL only: insert `deal`, update the fields `names` of `game` (locked by the
    caller) and insert `line`, the record's line of that deal, in one statement, with
    `also`, one more statement (a league's content version moved on), last; what `also`
    returns. As three `insert`/`update` calls would, with one trip to the database in
    place of three: the database's constraints hold, the deal is given its id."""
    line_fields = _line_fields(type(line))
    sql = _deal_written_sql(type(deal), type(game), names, type(line), also)
    params = [
        *_insert_values(deal),
        *_update_values(game, names),
        game.pk,
        *[_ready(field, line, True) for field in line_fields],
        *also_params,
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        deal.pk, *returned = cursor.fetchone()
    _saved(deal)
    return tuple(returned)


def _line_fields(line_model) -> list[models.Field]:
    """The columns of a line that `deal_written` fills from its values: all but the deal."""
    return [field for field in _fields(line_model) if field.name != "deal"]


@functools.cache
def _deal_written_sql(deal_model, game_model, names, line_model, also: str) -> str:
    columns = [*_line_fields(line_model), line_model._meta.get_field("deal")]
    return f"""
        WITH deal AS ({_insert_sql(deal_model)}),
             game AS ({_update_sql(game_model, names)}),
             line AS (
                 INSERT INTO {_quoted(line_model._meta.db_table)}
                        ({", ".join(_quoted(field.column) for field in columns)})
                 SELECT {", ".join(["%s"] * (len(columns) - 1))}, deal.id FROM deal
             ),
             also AS ({also})
        SELECT deal.id, also.* FROM deal, also
    """


def _saved(instance: models.Model) -> models.Model:
    instance._state.adding = False
    instance._state.db = connection.alias
    return instance


def _ready(field, instance, add: bool):
    return field.get_db_prep_save(field.pre_save(instance, add), connection)


def _insert_values(instance) -> list:
    return [_ready(field, instance, True) for field in _fields(type(instance))]


def _update_values(instance, names) -> list:
    return [_ready(instance._meta.get_field(name), instance, False) for name in names]


def _fields(model) -> list[models.Field]:
    """The columns an insert writes: all but the id, which the database gives."""
    return [field for field in model._meta.concrete_fields if not field.primary_key]


def _quoted(name: str) -> str:
    return connection.ops.quote_name(name)


@functools.cache
def _converters(model) -> list[tuple]:
    """What turns each column's value as read into the field's (a JSON text into a list,
    say), as the ORM's compiler does: (index, column, function) for the columns that
    need one."""
    found = []
    for index, field in enumerate(model._meta.concrete_fields):
        column = field.get_col(model._meta.db_table)
        converters = connection.ops.get_db_converters(column) + field.get_db_converters(connection)
        found.extend((index, column, convert) for convert in converters)
    return found


@functools.cache
def _insert_sql(model) -> str:
    fields = _fields(model)
    return (
        f"INSERT INTO {_quoted(model._meta.db_table)} "
        f"({', '.join(_quoted(field.column) for field in fields)}) "
        f"VALUES ({', '.join(['%s'] * len(fields))}) RETURNING {_quoted(model._meta.pk.column)}"
    )


@functools.cache
def _update_sql(model, names: tuple[str, ...]) -> str:
    columns = [model._meta.get_field(name).column for name in names]
    return (
        f"UPDATE {_quoted(model._meta.db_table)} "
        f"SET {', '.join(f'{_quoted(column)} = %s' for column in columns)} "
        f"WHERE {_quoted(model._meta.pk.column)} = %s"
    )
