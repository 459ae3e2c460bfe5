#!/usr/bin/env python3
"""Runs the commands of the docs as a reader would: every command line of a ```sh block of
README.md and docs/*.md, and the SQL the pages tell a reader to run, against the server jar that
the build made (a copy, in a temporary directory, on a free port), the local MariaDB and the local
PostgreSQL (a scratch database in place of `leaf` on each, dropped at the end). A command that this script neither runs nor
knows to be checked elsewhere fails it, so a new command in the docs needs a rule here.

    python3 .ci/docs-commands.py            (after ./mvnw verify or package; .ci/run calls it)
    python3 .ci/docs-commands.py --several-stores   (only docs/databases.md's several stores, as a black box)

Prints one line per command and a count at the end; exits 1 if any failed.
"""
import glob
import http.client
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
JAR = os.environ.get("LEAF_SERVER_JAR") or os.path.join(ROOT, "leaf-server", "target", "leaf-server.jar")
PAGES = ["README.md"] + sorted(glob.glob("docs/*.md", root_dir=ROOT))
MYSQL = "mysql --protocol=tcp -h 127.0.0.1 -P 3306 -u root"
# The machine's PostgreSQL (.ci/run makes sure it answers), as user postgres with trust auth.
PG = "-h 127.0.0.1 -p 5432 -U postgres"

# Commands that are checked elsewhere, with where.
ELSEWHERE = [
    (r"^docker compose |^curl localhost:808[12]/|^open http://localhost:3000",
     "Docker Compose needs a Docker engine; .ci/run validates docker-compose.yml (docker-compose config -q)"),
    (r"^\./mvnw -q -Dmaven\.test\.skip=true -pl leaf-bom,leaf-spring-boot-starter -am install$",
     ".ci/embedding-example.sh runs it, then builds and starts docs/embedding.md's application against what it installed"),
    (r"^\./mvnw -B verify -Pfault-suite$",
     "the full test command: .ci/run runs it before the docs' commands, and fails if it fails"),
    (r"^\./mvnw -B verify$",
     "the everyday test command: the full one (.ci/run's) runs the same tests and more"),
    (r"^docker build -t [\w./-]+:[\w.-]+ \.$",
     "needs a Docker engine (none here); the image builds the jar that .ci/run's ./mvnw -B verify builds and tests"),
    (r"^kubectl apply -k deploy/(kubernetes|overlays/[\w-]+)$",
     "needs a Kubernetes cluster (none here); the page's kubectl kustomize of the same directory is run here, "
     ".ci/check-kubernetes.sh checks what it renders, KubernetesManifestsTest checks the manifests against the "
     "server, KubernetesModeTest starts the server with the ConfigMap's leaf.properties"),
    (r"^kubectl create secret generic leaf-db --from-literal=password=\S+$",
     "needs a Kubernetes cluster (none here); .ci/check-kubernetes.sh checks that overlays/segment-mysql takes "
     "LEAF_JDBC_PASSWORD from this Secret and that no Secret is committed"),
    (r"^cd deploy/kubernetes && kustomize edit set image leaf-server=\S+$",
     "would rewrite the repository's deploy/kubernetes/kustomization.yaml (and the kustomize program is not installed here); "
     "the images: entry it edits is checked by .ci/check-kubernetes.sh and KubernetesManifestsTest"),
]

MYSQL_PAGE = "docs/getting-started-mysql.md"
PG_PAGE = "docs/databases.md"
PG_SECTION = "Getting started on PostgreSQL"
STORES_SECTION = "Several stores"
FORMATS_PAGE = "docs/formats.md"

passed, failed = 0, 0


def report(ok, page, command, note=""):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
    print(f"[docs] {'ok  ' if ok else 'FAIL'} {page}: {command}{'  -- ' + note if note else ''}", flush=True)


def blocks(page, language, section=None):
    """The command lines of the page's fenced blocks of one language, continuation lines joined;
    with `section`, only those under the heading `## {section}` (down to the next `## `)."""
    lines, inside, current, within = [], False, "", section is None
    for line in open(os.path.join(ROOT, page), encoding="utf-8").read().split("\n"):
        if section is not None and not inside and line.startswith("## "):
            within = line[3:].strip() == section
        if not within:
            continue
        if line.strip().startswith("```"):
            inside = not inside and line.strip()[3:].strip() == language
            continue
        if not inside:
            continue
        if current:
            line = current + " " + line.strip()
            current = ""
        if line.endswith("\\"):
            current = line[:-1].rstrip()
            continue
        if line.strip() and not line.lstrip().startswith("#") and not line.lstrip().startswith("--"):
            lines.append(line.strip())
    return lines


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """The quick start's `java -jar leaf-server/target/leaf-server.jar`, from a copy of the jar in a
    directory of its own (its ./data goes there) with a link to the lib/ beside the built jar, on a
    free port instead of 8080."""

    def __init__(self, work, env, *args, properties=(), installed=None):
        self.port = free_port()
        if installed:
            # The quick start's own installation (~/leaf), run where the reader runs it.
            self.dir = installed
        else:
            self.dir = tempfile.mkdtemp(dir=work)
            shutil.copy(JAR, os.path.join(self.dir, "leaf-server.jar"))
            os.symlink(os.path.join(os.path.dirname(JAR), "lib"), os.path.join(self.dir, "lib"))
        jar = os.path.join(self.dir, "leaf-server.jar")
        if properties:
            with open(os.path.join(self.dir, "leaf.properties"), "w") as file:
                file.write("\n".join(properties) + "\n")
        self.log = open(os.path.join(self.dir, "server.log"), "w")
        self.process = subprocess.Popen(
            ["java", "-Xmx256m", "-jar", jar, f"--server.port={self.port}",
             f"--leaf.snowflake.port={self.port}", *args],
            cwd=self.dir, env=env, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 120
        while time.time() < deadline:
            if self.process.poll() is not None:
                break
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/actuator/health/readiness", timeout=2):
                    return
            except OSError:
                time.sleep(0.5)
        self.stop()
        print(open(os.path.join(self.dir, "server.log")).read()[-3000:])
        raise SystemExit("[docs] the server did not become ready")

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.log.close()


def run_curl(page, command, server, env):
    """The command as written, on the server's port; the status must be the one its comment names
    (404, 201…) or else 2xx."""
    body, _, comment = command.partition(" #")
    body = body.strip().replace("localhost:8080", f"localhost:{server.port}")
    expected = re.search(r"\b([45]\d\d)\b", comment)
    out = subprocess.run(["bash", "-c", body + " -w '\\n%{http_code}'"], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=30)
    answer, _, status = out.stdout.rpartition("\n")
    ok = out.returncode == 0 and (status == expected.group(1) if expected else status.startswith("2"))
    report(ok, page, command, f"HTTP {status}" + ("" if ok else f", curl exit {out.returncode}: {answer[:300]}"))


# The clients' leafid commands, as docs/clients.md writes them: where each runs from.
LEAFID = [
    (r"^cd clients/python && python3 -m leafid ", {"PYTHONDONTWRITEBYTECODE": "1"}),
    (r"^cd clients/go && go run \./cmd/leafid ", {"GOPROXY": "off", "GOTOOLCHAIN": "local"}),
    (r"^cd clients/node && node bin/leafid\.js ", {}),
]


def run_leafid(page, command, server, env):
    """A client's leafid command as written, on the server's port: exit 0 and one ID a line, as many
    as --count (1 without it), or, when its comment names exit 1, exit 1 with the problem on stderr."""
    body, _, comment = command.partition(" #")
    body = body.strip().replace("localhost:8080", f"localhost:{server.port}")
    extra = next(variables for rule, variables in LEAFID if re.search(rule, command))
    run_env = dict(env, **extra)
    if "GOCACHE" not in run_env and "go run" in body:
        run_env["GOCACHE"] = os.path.join(server.dir, "go-cache")
    out = subprocess.run(["bash", "-c", body], cwd=ROOT, env=run_env, capture_output=True, text=True, timeout=180)
    count = re.search(r"--count (\d+)", body)
    printed = out.stdout.split()
    if "exit 1" in comment:
        ok = out.returncode == 1 and out.stderr.startswith("leafid: ") and not printed
        note = out.stderr.strip()[:200]
    else:
        ok = out.returncode == 0 and len(printed) == (int(count.group(1)) if count else 1) \
            and len(set(printed)) == len(printed)
        note = f"{len(printed)} values" + ("" if ok else f", exit {out.returncode}: {out.stderr.strip()[:300]}")
    report(ok, page, command, note)


def page_server(work, env, page, sql_command, connection, section=None):
    """A getting-started page's steps 2 and 3 (or those of one section of the page): its SQL on the
    scratch database (each statement run by `sql_command + [statement]`), then the server with the
    page's leaf.properties, the connection keys replaced by `connection` (the scratch database's)."""
    for statement in blocks(page, "sql", section):
        out = subprocess.run(sql_command + [statement], capture_output=True, text=True)
        report(out.returncode == 0, page, statement, out.stderr.strip()[:300])
    properties = []
    for line in blocks(page, "properties", section):
        key = line.split("=", 1)[0].strip()
        properties.append(f"{key}={connection[key]}" if key in connection else line)
    assert any(p.startswith("leaf.jdbc.url=") for p in properties), f"{page} sets no leaf.jdbc.url"
    return Server(work, env, properties=properties)


def mysql_server(work, env, database):
    """The MySQL page's server, on the local MariaDB's scratch database, as the page's own user
    (leaf.jdbc.username and password as written): the grants the page gives it must be enough."""
    return page_server(work, env, MYSQL_PAGE, MYSQL.split() + [database, "-e"],
                       {"leaf.jdbc.url": f"jdbc:mysql://127.0.0.1:3306/{database}?useSSL=false&serverTimezone=UTC"})


def mysql_user_exists(user):
    """Whether the local MariaDB has `user`@'%' (made by something else when it is there at the start)."""
    out = subprocess.run(MYSQL.split() + ["-N", "-e", f"SELECT COUNT(*) FROM mysql.user WHERE user = '{user}' "
                                                      "AND host = '%'"], capture_output=True, text=True)
    return out.stdout.strip() != "0"


def pg_server(work, env, database):
    """The PostgreSQL section's server, on the local PostgreSQL's scratch database."""
    return page_server(work, env, PG_PAGE, ["psql"] + PG.split() + ["-v", "ON_ERROR_STOP=1", "-d", database, "-c"],
                       {"leaf.jdbc.url": f"jdbc:postgresql://127.0.0.1:5432/{database}",
                        "leaf.jdbc.username": database, "leaf.jdbc.password": "secret"},
                       section=PG_SECTION)


class PrivateMariadb:
    """A MariaDB server of this script's own on a free port (mariadb-install-db + mariadbd, as
    leaf-test-support's MariadbServer starts one), so that it can be killed."""

    def __init__(self, work):
        parent = os.path.join(work, "mariadb")
        self.home = os.path.join(parent, "home")
        os.makedirs(self.home)
        as_root = os.geteuid() == 0
        if as_root:
            # mariadbd drops to the mysql user: it must reach its directory.
            os.chmod(work, 0o755)
            os.chmod(parent, 0o755)
            shutil.chown(self.home, "mysql", "mysql")
        self.port = free_port()
        cnf = os.path.join(self.home, "my.cnf")
        with open(cnf, "w") as file:
            file.write("\n".join([
                "[mysqld]", f"datadir={self.home}/data", f"socket={self.home}/mysqld.sock",
                f"pid-file={self.home}/mysqld.pid", f"port={self.port}", "bind-address=127.0.0.1",
                "skip-name-resolve", f"user={'mysql' if as_root else os.environ.get('USER', 'root')}",
                "innodb_buffer_pool_size=32M", "innodb_log_file_size=16M",
                "innodb_flush_log_at_trx_commit=2", ""]))
        out = subprocess.run(["mariadb-install-db", f"--defaults-file={cnf}", "--auth-root-authentication-method=normal",
                              "--skip-test-db"], capture_output=True, text=True, timeout=120)
        if out.returncode != 0:
            raise SystemExit(f"[docs] mariadb-install-db failed: {out.stdout[-1000:]}{out.stderr[-1000:]}")
        self.log = open(os.path.join(work, "mariadbd.log"), "w")
        self.process = subprocess.Popen(["mariadbd", f"--defaults-file={cnf}"], stdout=self.log,
                                        stderr=subprocess.STDOUT)
        deadline = time.time() + 60
        while self.sql("SELECT 1").returncode != 0:
            if time.time() > deadline or self.process.poll() is not None:
                self.kill()
                raise SystemExit("[docs] the store's own mariadbd did not start: "
                                 + open(os.path.join(work, "mariadbd.log")).read()[-2000:])
            time.sleep(0.3)

    def sql(self, statement, database=""):
        return subprocess.run(["mysql", "--protocol=tcp", "-h", "127.0.0.1", "-P", str(self.port), "-u", "root",
                               *([database] if database else []), "-e", statement], capture_output=True, text=True)

    def kill(self):
        """kill -9, as a crash would."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(30)
        self.log.close()


def several_stores_run(work, env, database):
    """docs/databases.md's several stores as a reader would run them, as a black box: the section's
    leaf.properties with three stores (one on a mariadbd of this script's own, one on the local
    MariaDB, one on the local PostgreSQL, each with the tables of sql/ or sql/postgresql/), two
    servers, IDs asked of both from four threads; the first store killed (kill -9) a third of the
    way in. Every answer must be 200, and no ID may come twice across both servers."""
    page = PG_PAGE
    own = PrivateMariadb(work)
    servers = []
    try:
        mysql_sql = sorted(glob.glob(os.path.join(ROOT, "sql", "*.sql")))
        pg_sql = sorted(glob.glob(os.path.join(ROOT, "sql", "postgresql", "*.sql")))
        own.sql("CREATE DATABASE leaf")
        subprocess.run(MYSQL.split() + ["-e", f"CREATE DATABASE {database}"], check=True, capture_output=True)
        subprocess.run(["createdb"] + PG.split() + [database], check=True, capture_output=True)
        for script in mysql_sql:
            body = open(script, encoding="utf-8").read()
            for command in (["mysql", "--protocol=tcp", "-h", "127.0.0.1", "-P", str(own.port), "-u", "root", "leaf"],
                            MYSQL.split() + [database]):
                out = subprocess.run(command, input=body, capture_output=True, text=True)
                if out.returncode != 0:
                    raise SystemExit(f"[docs] {script}: {out.stderr[:300]}")
        for script in pg_sql:
            out = subprocess.run(["psql"] + PG.split() + ["-v", "ON_ERROR_STOP=1", "-q", "-d", database, "-f", script],
                                 capture_output=True, text=True)
            if out.returncode != 0:
                raise SystemExit(f"[docs] {script}: {out.stderr[:300]}")
        connection = {
            "leaf.jdbc.stores[0].url": f"jdbc:mysql://127.0.0.1:{own.port}/leaf",
            "leaf.jdbc.stores[0].username": "root", "leaf.jdbc.stores[0].password": "",
            "leaf.jdbc.stores[1].url": f"jdbc:mysql://127.0.0.1:3306/{database}",
            "leaf.jdbc.stores[1].username": "root", "leaf.jdbc.stores[1].password": "",
            "leaf.jdbc.stores[2].url": f"jdbc:postgresql://127.0.0.1:5432/{database}",
            "leaf.jdbc.stores[2].username": "postgres", "leaf.jdbc.stores[2].password": "",
        }
        properties = []
        for line in blocks(page, "properties", STORES_SECTION):
            key = line.split("=", 1)[0].strip()
            properties.append(f"{key}={connection[key]}" if key in connection else line)
        if sorted(p.split("=", 1)[0] for p in properties) != sorted(connection):
            raise SystemExit(f"[docs] {page}'s {STORES_SECTION} sets other keys than three stores': {properties}")
        servers.extend(Server(work, env, properties=properties) for _ in range(2))
        ranges, statuses, lock = [], {}, threading.Lock()
        stop, killed_at = threading.Event(), []

        def load(index):
            connections = [http.client.HTTPConnection("127.0.0.1", s.port, timeout=10) for s in servers]
            turn = index
            while not stop.is_set():
                connection = connections[turn % len(connections)]
                turn += 1
                connection.request("GET", "/api/segment/get/leaf-segment-test?count=1000",
                                   headers={"Accept": "application/vnd.leaf.ranges+json"})
                answer = connection.getresponse()
                body = answer.read()
                with lock:
                    key = (answer.status, bool(killed_at))
                    statuses[key] = statuses.get(key, 0) + 1
                    if answer.status == 200:
                        ranges.extend((int(a), int(b)) for a, b in json.loads(body)["ranges"])
            for connection in connections:
                connection.close()

        threads = [threading.Thread(target=load, args=(i,)) for i in range(4)]
        for thread in threads:
            thread.start()
        time.sleep(4)
        own.kill()
        killed_at.append(time.time())
        time.sleep(8)
        stop.set()
        for thread in threads:
            thread.join(30)
        ranges.sort()
        count = sum(b - a + 1 for a, b in ranges)
        overlaps = sum(1 for (a1, b1), (a2, b2) in zip(ranges, ranges[1:]) if a2 <= b1)
        after = sum(n for (status, late), n in statuses.items() if late)
        bad = {f"{status}{' after the kill' if late else ''}": n for (status, late), n in statuses.items()
               if status != 200}
        health = urllib.request.Request(f"http://127.0.0.1:{servers[0].port}/actuator/health/stores",
                                        headers={"Authorization": f"Bearer {env.get('LEAF_ADMIN_TOKEN', '')}"})
        try:
            with urllib.request.urlopen(health, timeout=10) as answer:
                stores = json.loads(answer.read())["components"]["segmentStores"]
        except urllib.error.HTTPError as error:
            stores = json.loads(error.read()).get("components", {}).get("segmentStores", {})
        store0 = str(stores.get("details", {}).get("stores[0]", "?"))
        ok = overlaps == 0 and not bad and after > 0 and count > 0 and stores.get("status") == "UP" \
            and store0.startswith("DOWN")
        report(ok, page, f"({STORES_SECTION}) two servers on three stores, the first killed under load",
               f"{count:,} IDs in {sum(statuses.values()):,} answers ({after:,} after the kill), "
               f"{overlaps} repeated, non-200: {bad or 'none'}; segmentStores {stores.get('status')}, "
               f"stores[0] {store0[:80]}")
    finally:
        for server in servers:
            server.stop()
        own.kill()
        subprocess.run(MYSQL.split() + ["-e", f"DROP DATABASE IF EXISTS {database}"], capture_output=True)
        subprocess.run(["dropdb"] + PG.split() + ["--if-exists", "--force", database], capture_output=True)


def main():
    if not os.path.isfile(JAR):
        raise SystemExit(f"[docs] {JAR} is missing: build it first")
    work = tempfile.mkdtemp(prefix="leaf-docs-")
    database = f"leaf_docs_{os.getpid()}"
    # The MySQL page creates the user 'leaf'@'%'; one that was there before is not this script's to drop.
    leaf_user_before = mysql_user_exists("leaf")
    env = dict(os.environ)
    servers = []
    try:
        commands = [(page, command) for page in PAGES for command in blocks(page, "sh")]
        # 1. What sets up the reader's shell: the admin token.
        for page, command in commands:
            if command.startswith("export LEAF_ADMIN_TOKEN="):
                token = subprocess.run(["bash", "-c", command + ' && printf %s "$LEAF_ADMIN_TOKEN"'],
                                       capture_output=True, text=True).stdout
                env["LEAF_ADMIN_TOKEN"] = token
                report(len(token) >= 16, page, command)
        # 2. The quick-start server (embedded default), started as the pages start it; on the
        # MySQL page, a server on the reader's database (a scratch one here) from that page's SQL
        # and leaf.properties.
        # The reader's home is a scratch directory: the quick start installs the server in ~/leaf.
        home = os.path.join(work, "home")
        os.makedirs(home)
        env["HOME"] = home
        data_before = os.path.exists(os.path.join(ROOT, "data"))
        for page, command in commands:
            if command.startswith("mkdir -p ~/leaf && cp "):
                out = subprocess.run(["bash", "-c", command], cwd=ROOT, env=env, capture_output=True, text=True)
                installed = os.path.isfile(os.path.join(home, "leaf", "leaf-server.jar"))
                report(out.returncode == 0 and installed, page, command, out.stderr.strip()[:300])
        if not os.path.isfile(os.path.join(home, "leaf", "leaf-server.jar")):
            raise SystemExit("[docs] no page's command installed the server in ~/leaf")
        server = Server(work, env, installed=os.path.join(home, "leaf"))
        servers.append(server)
        current, current_page = server, None
        for page, command in commands:
            if page != current_page:
                current, current_page = server, page
            if command.startswith("export LEAF_ADMIN_TOKEN=") or command.startswith("mkdir -p ~/leaf && cp "):
                continue
            elsewhere = next((why for rule, why in ELSEWHERE if re.search(rule, command)), None)
            if elsewhere:
                report(True, page, command, "not run here: " + elsewhere)
            elif command == "./mvnw -q -DskipTests package":
                report(True, page, command, "not run here: .ci/run's ./mvnw -B verify built the jar these commands use")
            elif command == "cd ~/leaf && java -jar leaf-server.jar":
                if page == MYSQL_PAGE:
                    current = mysql_server(work, env, database)
                    servers.append(current)
                elif page == PG_PAGE:
                    current = pg_server(work, env, database)
                    servers.append(current)
                elif page == FORMATS_PAGE:
                    # The page's formats on the embedded default database.
                    current = Server(work, env, properties=blocks(page, "properties"))
                    servers.append(current)
                report(True, page, command, f"run in {current.dir}, port {current.port}")
            elif command.startswith("curl "):
                run_curl(page, command, current, env)
            elif any(re.search(rule, command) for rule, _ in LEAFID):
                run_leafid(page, command, current, env)
            elif command.startswith("mysql "):
                # The reader's database `leaf` is a scratch database here.
                body = re.sub(r"^mysql leaf\b", f"mysql {database}", command)
                body = re.sub(r"(?<=EXISTS )leaf\b", database, body)
                body = re.sub(r"(?<= ON )leaf(?=\.\*)", database, body)
                body = body.replace("mysql ", MYSQL + " ", 1)
                out = subprocess.run(["bash", "-c", body], cwd=ROOT, capture_output=True, text=True, timeout=60)
                report(out.returncode == 0, page, command, out.stderr.strip()[:300])
            elif re.match(r"^(createdb|psql) ", command):
                # The reader's database `leaf` is a scratch database here, on the machine's PostgreSQL.
                body, _, _ = command.partition(" #")
                tool, _, rest = body.strip().partition(" ")
                rest = re.sub(r"(^|-d )leaf\b", lambda m: m.group(1) + database, rest)
                # The page's role `leaf` is a scratch role of the same name as the scratch database.
                rest = re.sub(r"(ROLE |TO )leaf\b", lambda m: m.group(1) + database, rest)
                extra = " -v ON_ERROR_STOP=1" if tool == "psql" else ""
                out = subprocess.run(["bash", "-c", f"{tool} {PG}{extra} {rest}"], cwd=ROOT, capture_output=True,
                                     text=True, timeout=60)
                report(out.returncode == 0, page, command, out.stderr.strip()[:300])
            elif re.fullmatch(r"kubectl kustomize deploy/(kubernetes|overlays/[\w-]+)", command):
                # Renders the directory as `kubectl apply -k` would send it, with no cluster involved.
                if shutil.which("kubectl") is None:
                    report(False, page, command, "kubectl is missing: .ci/check-kubernetes.sh installs it")
                    continue
                out = subprocess.run(command.split(), cwd=ROOT, capture_output=True, text=True, timeout=60)
                kinds = re.findall(r"(?m)^kind: (\S+)$", out.stdout)
                report(out.returncode == 0 and bool(kinds), page, command,
                       ", ".join(kinds) if out.returncode == 0 else out.stderr.strip()[:300])
            elif command.startswith("ops/start-cache.sh "):
                parts = command.split()
                java = parts[3] if len(parts) > 3 and os.access(parts[3], os.X_OK) else "java"
                cache = os.path.join(work, "start-cache")
                out = subprocess.run(["ops/start-cache.sh", JAR, cache, java], cwd=ROOT, capture_output=True,
                                     text=True, timeout=300)
                last = out.stdout.strip().split("\n")[-1] if out.stdout.strip() else ""
                report(out.returncode == 0 and last.startswith(java), page, command,
                       f"with {java}: {last[:200]}" if out.returncode == 0 else out.stderr.strip()[-300:])
            else:
                report(False, page, command, "no rule runs this command: add one to .ci/docs-commands.py")
        for server in servers:
            server.stop()
        several_stores_run(work, env, database + "_stores")
    finally:
        for server in servers:
            server.stop()
        subprocess.run(MYSQL.split() + ["-e", f"DROP DATABASE IF EXISTS {database}"], capture_output=True)
        if leaf_user_before:
            # A database's grants outlive it: take back what the page's GRANT gave on the scratch one.
            subprocess.run(MYSQL.split() + ["-e", f"REVOKE ALL PRIVILEGES ON {database}.* FROM 'leaf'@'%'"],
                           capture_output=True)
        else:
            subprocess.run(MYSQL.split() + ["-e", "DROP USER IF EXISTS 'leaf'@'%'"], capture_output=True)
        subprocess.run(["dropdb"] + PG.split() + ["--if-exists", "--force", database], capture_output=True)
        subprocess.run(["psql"] + PG.split() + ["-d", "postgres", "-c", f"DROP ROLE IF EXISTS {database}"],
                       capture_output=True)
        shutil.rmtree(work, ignore_errors=True)
    # The quick start keeps its data in ~/leaf: a server run as the pages say leaves no ./data in the work tree.
    report(os.path.exists(os.path.join(ROOT, "data")) == data_before, "README.md",
           "(after every command) no ./data left in the work tree")
    print(f"[docs] {passed + failed} commands of the docs: {passed} ran or are checked elsewhere, {failed} did not")
    return 1 if failed else 0


def main_several_stores():
    """Only the several stores' run (`--several-stores`), for whoever changes that section."""
    work = tempfile.mkdtemp(prefix="leaf-docs-")
    try:
        env = dict(os.environ, LEAF_ADMIN_TOKEN=os.environ.get("LEAF_ADMIN_TOKEN") or os.urandom(24).hex())
        several_stores_run(work, env, f"leaf_docs_{os.getpid()}_stores")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main_several_stores() if sys.argv[1:] == ["--several-stores"] else main())
