"""
The standings tables as files to download: CSV and XLSX.

- A **formula-looking** cell is text that starts with `= + - @`, a tab or a carriage
  return: a spreadsheet would run it (OWASP's "CSV injection"). The CSV writes such
  text with a leading apostrophe; the XLSX stores it as a text cell, which no
  spreadsheet evaluates.
- A **shared** position ("=3" on the page) is written as the number 3 with "yes" in
  a separate "Shared" column, so a spreadsheet sorts it and sees no formula.
- Numbers are written as numbers; the CSV starts with a UTF-8 BOM so Excel reads the
  fadas ("Seán") right.
"""

import csv
import io

import openpyxl
from django.http import HttpResponse

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def table_values(table) -> tuple[list[str], list[list]]:
    """The headings and rows of a django-tables2 standings table, plain values, with
    the position as a number and a "Shared" column at the end."""
    values = iter(table.as_values())
    headers = [*next(values), "Shared"]
    rows = []
    for cells, row in zip(values, table.rows, strict=True):
        record = row.record
        label = str(record.get("position_label") or "")
        shared = record.get("shared", label.startswith("="))
        rows.append([record.get("position"), *cells[1:], "yes" if shared else ""])
    return headers, rows


def _csv_cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return str(value)


def csv_response(table, *, filename: str) -> HttpResponse:
    headers, rows = table_values(table)
    buffer = io.StringIO()
    buffer.write("\ufeff")
    writer = csv.writer(buffer)
    writer.writerow(headers)
    writer.writerows([_csv_cell(value) for value in row] for row in rows)
    response = HttpResponse(buffer.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def xlsx_response(table, *, filename: str, title: str) -> HttpResponse:
    headers, rows = table_values(table)
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.title = title
    sheet.append(headers)
    for line, values in enumerate(rows, start=2):
        for column, value in enumerate(values, start=1):
            cell = sheet.cell(row=line, column=column)
            if isinstance(value, str):
                cell.value = value or None
                # openpyxl reads "=…" as a formula; a text cell is never evaluated.
                cell.data_type = "s"
            else:
                cell.value = value
    # Opened in a spreadsheet: the header stays in view, and each column is as wide as
    # its longest entry (names with fadas are not cut off at 8 characters).
    sheet.freeze_panes = "A2"
    for column in sheet.columns:
        longest = max(len(str(cell.value or "")) for cell in column)
        sheet.column_dimensions[column[0].column_letter].width = min(longest + 2, 60)
    buffer = io.BytesIO()
    workbook.save(buffer)
    response = HttpResponse(buffer.getvalue(), content_type=XLSX_TYPE)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
