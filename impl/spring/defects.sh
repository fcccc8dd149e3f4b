#!/usr/bin/env bash
# make mutants' warm copy of impl/spring (impl.yaml `defects`, docs/testing.md): one Maven build,
# then each planted defect compiled alone against it, and started from the exploded classes.
#   defects.sh warm            the manifest's build, the fat jar's libraries unpacked, the classes kept pristine
#   defects.sh rebuild FILE    the pristine classes back, FILE (the defect's edit) compiled or copied over them
# A defect that changes what other classes compile against (a signature, an inlined constant)
# recompiles the sources that name the edited type too: javac binds both at compile time.
set -euo pipefail
cd "$(dirname "$0")"
repo="$(git rev-parse --show-toplevel)"
out=target/defects
classes=target/classes
src=src/main/java
# spring-boot-starter-parent's compiler settings (pom.xml: java.version 17): the same bytecode as Maven's.
# C1 alone for javac's own JVM: a one-file compile is mostly its warm-up (3.2 s against 1.9 s here).
javac_flags=(-J-XX:TieredStopAtLevel=1 --release 17 -parameters -encoding UTF-8 -nowarn -proc:none -d "$classes" -cp "$classes:$out/lib/*")

case "${1:-}" in
  warm)
    mvn -o -q -B -Dmaven.repo.local="$repo/.cache/m2" package -DskipTests
    rm -rf "$out"
    mkdir -p "$out/lib"
    (cd "$out" && unzip -q ../fairbench-spring.jar 'BOOT-INF/lib/*' && mv BOOT-INF/lib/* lib/ && rm -r BOOT-INF)
    cp -a "$classes" "$out/pristine"
    ;;
  rebuild)
    file="${2:?defects.sh rebuild FILE}"
    rm -rf "$classes"
    cp -a "$out/pristine" "$classes"
    case "$file" in
      src/main/resources/*) cp "$file" "$classes/${file#src/main/resources/}" ;;
      "$src"/*.java)
        type="${file#"$src"/}"
        type="${type%.java}"
        # The file's classes (nested ones too) go: one the edit removed must not be found by Spring's scan.
        rm -f "$classes/$type.class" "$classes/$type"\$*.class
        javac "${javac_flags[@]}" "$file"
        # What other classes see of it: non-private members and constant values, before and after.
        surface() { (cd "$1" && find . -path "./$type.class" -o -path "./$type\$*.class" | sort | xargs javap -constants); }
        if [ "$(surface "$out/pristine")" != "$(surface "$classes")" ]; then
          # Those that name it (an import, a same-package use, a subclass, a static import) again too.
          name="${type##*/}"
          grep -rlw --include='*.java' "$name" "$src" | grep -vxF "$file" > "$out/dependents" || true
          echo "defects.sh: $file changes what other classes compile against: $(wc -l < "$out/dependents") that name $name recompiled too"
          if [ -s "$out/dependents" ]; then javac "${javac_flags[@]}" "$file" @"$out/dependents"; fi
        fi
        ;;
      *) echo "defects.sh: $file is neither a Java source nor a resource" >&2; exit 2 ;;
    esac
    ;;
  *) echo "usage: defects.sh warm | rebuild FILE" >&2; exit 2 ;;
esac
