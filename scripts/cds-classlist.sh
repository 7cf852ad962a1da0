#!/usr/bin/env bash
# Writes src/main/resources/cds/order-console.classlist: the classes that the one-shot commands show, create,
# transition and stats load, in the order they load them, for the class-data archive 'install' makes
# (cli/ClassDataArchive). Runs the built jar against servers that are running; nothing else needs them.
#   scripts/cds-classlist.sh target/order-console.jar --redis redis://127.0.0.1:6379 --jdbc jdbc:mysql://… \
#       --db-user alice --db-password-env ORDERS_DB_PASSWORD
# The account needs the support role (it creates one order, cds-<time>, and pays it).
set -euo pipefail
jar=$1; shift
out="$(dirname "$0")/../src/main/resources/cds/order-console.classlist"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
id="cds-$(date +%s)"
run() { java -XX:DumpLoadedClassList="$tmp/$1.classlist" -jar "$jar" "${@:2}" >/dev/null; }
run create "$@" create --id "$id" --expire-in 30m
run transition "$@" transition --id "$id" --to PAID --reason "class list"
run show "$@" show --id "$id"
run stats "$@" stats
# One list, each line once, in the order of first appearance.
awk '!seen[$0]++' "$tmp/show.classlist" "$tmp/create.classlist" "$tmp/transition.classlist" "$tmp/stats.classlist" > "$out"
echo "$(wc -l < "$out") lines in $out"
