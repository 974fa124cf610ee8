# The two commands: `make run` and `make test`. See README.md.
SHELL := /bin/bash
.DEFAULT_GOAL := run
.PHONY: run test lint bench venv serve

BIN := .venv/bin
PORT ?= 8000
PG_URL := postgres://twentyfive:twentyfive@127.0.0.1:5432/twentyfive

DEV_ENV := DJANGO_DEBUG=1 DJANGO_HTTPS=0
TEST_ENV := DJANGO_SECRET_KEY=test-only-key-9f3c1e7a5b2d4c6e8a0b1d3f5e7c9a2b4d6f8e0a1c3e5 \
	DJANGO_HTTPS=0 DATABASE_URL=$(PG_URL)
PROD_ENV := DJANGO_SECRET_KEY=$$(.venv/bin/python -c 'import secrets; print(secrets.token_urlsafe(50))') \
	DJANGO_ALLOWED_HOSTS=league.example.ie DATABASE_URL=$(PG_URL)

$(BIN)/.installed: pyproject.toml .ci/venv
	bash .ci/venv
	touch $@

venv: $(BIN)/.installed

run: venv
	bash .ci/system-deps
	$(DEV_ENV) $(BIN)/python manage.py migrate --noinput
	$(DEV_ENV) $(BIN)/python manage.py load_demo
	@echo "Serving on http://127.0.0.1:$(PORT)/"
	$(DEV_ENV) $(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

lint: venv
	$(BIN)/ruff check .

test: venv
	bash .ci/system-deps --browser
	bash .ci/postgres
	bash .ci/redis
	$(BIN)/ruff check .
	$(TEST_ENV) $(BIN)/python manage.py check --fail-level WARNING
	$(TEST_ENV) $(BIN)/python manage.py makemigrations --check --dry-run
	$(PROD_ENV) $(BIN)/python manage.py check --deploy --fail-level WARNING
	$(PROD_ENV) $(BIN)/python manage.py collectstatic --noinput -v0
	$(TEST_ENV) $(BIN)/pytest

bench: venv
	bash .ci/system-deps --bench
	bash .ci/postgres
	bash .ci/redis
	$(TEST_ENV) $(BIN)/python -m bench

# Production: migrate, collect the static files (hashed names, compressed) and serve with
# gunicorn on 127.0.0.1:8000 behind the proxy. Needs DJANGO_SECRET_KEY,
# DJANGO_ALLOWED_HOSTS and DATABASE_URL (and REDIS_URL for several app servers).
serve: venv
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py collectstatic --noinput -v0
	$(BIN)/gunicorn -c config/gunicorn.conf.py config.wsgi
