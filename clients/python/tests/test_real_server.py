"""The client against the real server (the jar the build made): every mode, the errors, the
leafid command, and 1,000,000 IDs through two servers on one MariaDB with one killed halfway."""
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))

from leafid import LeafClient, LeafInvalidInputError, LeafUnknownKeyError  # noqa: E402

ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
JAR = os.environ.get("LEAF_SERVER_JAR") or os.path.join(ROOT, "leaf-server", "target", "leaf-server.jar")
MYSQL = ["mysql", "--protocol=tcp", "-h", "127.0.0.1", "-P", "3306", "-u", "root"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """The server jar in a directory of its own, on a free port, ready when its readiness says so."""

    def __init__(self, work, *args):
        self.port = free_port()
        self.dir = tempfile.mkdtemp(dir=work)
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = open(os.path.join(self.dir, "server.log"), "w")
        self.process = subprocess.Popen(["java", "-Xmx256m", "-jar", JAR, f"--server.port={self.port}",
                                         f"--leaf.snowflake.port={self.port}", *args],
                                        cwd=self.dir, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 120
        while time.time() < deadline and self.process.poll() is None:
            try:
                with urllib.request.urlopen(f"{self.url}/actuator/health/readiness", timeout=2):
                    return
            except OSError:
                time.sleep(0.5)
        self.stop()
        raise AssertionError("the server did not start: " + open(os.path.join(self.dir, "server.log")).read()[-2000:])

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(30)

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.log.close()


@unittest.skipUnless(os.path.isfile(JAR), f"{JAR} is missing: build the server first")
class RealServerTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.mkdtemp(prefix="leafid-python-")
        cls.server = Server(cls.work, "--leaf.formats.o.pattern=O{yyyy}{seq:6}{check}",
                            "--leaf.formats.o.reset=yearly", "--leaf.formats.o.tag=py-format",
                            "--leaf.formats.o.zone=UTC", "--leaf.formats.b.pattern=B-{yy}{MM}-{seq36:5}{check}",
                            "--leaf.formats.b.tag=py-format-36", "--leaf.formats.b.zone=UTC")

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()
        shutil.rmtree(cls.work, ignore_errors=True)

    def test_every_mode(self):
        with LeafClient([self.server.url]) as client:
            segment = client.segment("leaf-segment-test").next_ids(5000)
            self.assertEqual(segment, sorted(set(segment)))
            snowflake = client.snowflake().next_ids(3000)
            self.assertEqual(snowflake, sorted(set(snowflake)))
            shard = client.shard(1, "alice@example.com").next_ids(100)
            self.assertEqual(len(set(shard)), 100)
            self.assertTrue(all(value & 0xFF == 1 for value in shard))
            strings = client.format("o").next(50)
            self.assertEqual(len(set(strings)), 50)
            self.assertTrue(client.next_string("o").startswith("O"))
            # Base 36 with a Luhn mod 36 check: every string the server gives passes the client's test of it.
            base36 = client.format("b").next(2000)
            self.assertEqual(len(set(base36)), 2000)
            self.assertEqual(client.bad_answers(), {})

    def test_typed_errors(self):
        with LeafClient([self.server.url]) as client:
            with self.assertRaises(LeafUnknownKeyError) as unknown:
                client.segment("no-such-tag").next_id()
            self.assertEqual(unknown.exception.type, "urn:leaf:problem:unknown-tag")
            with self.assertRaises(ValueError):
                client.segment("bad tag!")
            with self.assertRaises(LeafInvalidInputError):
                client.shard(1, "x" * 5000).next_id()

    def test_the_leafid_command(self):
        env = dict(os.environ, PYTHONPATH=os.path.join(HERE, ".."))
        out = subprocess.run([sys.executable, "-m", "leafid", "--servers", self.server.url, "--segment",
                              "leaf-segment-test", "--count", "3"], capture_output=True, text=True, env=env, timeout=60)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertEqual(len(out.stdout.split()), 3)
        out = subprocess.run([sys.executable, "-m", "leafid", "--servers", self.server.url, "--segment",
                              "no-such-tag"], capture_output=True, text=True, env=env, timeout=60)
        self.assertEqual(out.returncode, 1)
        self.assertIn("unknown-tag", out.stderr)


@unittest.skipUnless(os.path.isfile(JAR) and shutil.which("mysql"), "needs the server jar and the local MariaDB")
class KilledServerTest(unittest.TestCase):

    def test_a_million_ids_through_two_servers_one_killed_halfway(self):
        database = f"leafid_python_{os.getpid()}"
        subprocess.run(MYSQL + ["-e", f"DROP DATABASE IF EXISTS {database}; CREATE DATABASE {database}"], check=True)
        work = tempfile.mkdtemp(prefix="leafid-python-")
        servers = []
        try:
            with open(os.path.join(ROOT, "sql", "leaf_alloc.sql")) as script:
                subprocess.run(MYSQL + [database], stdin=script, check=True)
            url = f"--leaf.jdbc.url=jdbc:mysql://127.0.0.1:3306/{database}"
            servers = [Server(work, url, "--leaf.jdbc.username=root", "--leaf.snowflake.enable=false")
                       for _ in range(2)]
            client = LeafClient([s.url for s in servers], request_timeout=1, max_wait=10, log=lambda line: None)
            buffer = client.segment("leaf-segment-test")
            issued, lock = [], threading.Lock()

            def work_through(n):
                mine = buffer.next_ids(n) if n else []
                with lock:
                    issued.extend(mine)

            for half in range(2):
                threads = [threading.Thread(target=lambda: [work_through(1000) for _ in range(125)])
                           for _ in range(4)]
                for thread in threads:
                    thread.start()
                if half == 1:
                    # Halfway, with the second half's requests under way: the preferred server dies.
                    time.sleep(0.05)
                    servers[0].kill()
                for thread in threads:
                    thread.join(120)
            self.assertEqual(len(issued), 1_000_000)
            self.assertEqual(len(set(issued)), 1_000_000, "an ID handed out twice")
        finally:
            for server in servers:
                server.stop()
            subprocess.run(MYSQL + ["-e", f"DROP DATABASE IF EXISTS {database}"])
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
