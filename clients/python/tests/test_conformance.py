"""The client against servers that answer badly in one way each, beside a good one: every ID it
hands out comes from the good server, none twice, and each bad answer is refused and counted."""
import os
import sys
import threading
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "..", "conformance"))

from bad_servers import BAD, SLOW, AlternatingShard, FakeServer, Good, GoodFormat, GoodShard, java_shard  # noqa: E402
from leafid import LeafClient, LeafUnavailableError  # noqa: E402


def quiet(line):
    pass


class ConformanceTest(unittest.TestCase):

    def take_through(self, behaviour, n=5000, threads=4):
        good_source = Good(start=1)
        bad = FakeServer(behaviour, source=good_source)
        good = FakeServer(good_source)
        client = LeafClient([bad.url, good.url], request_timeout=0.5, max_wait=5, log=quiet)
        issued, lock = [], threading.Lock()

        def work():
            buffer = client.segment("t")
            mine = [buffer.next_id() for _ in range(n // threads)]
            with lock:
                issued.extend(mine)

        workers = [threading.Thread(target=work) for _ in range(threads)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(60)
        bad.close()
        good.close()
        self.assertEqual(len(issued), n - n % threads)
        self.assertEqual(len(set(issued)), len(issued), "an ID handed out twice")
        self.assertTrue(all(good_source.issued(value) for value in issued),
                        "an ID that the good server did not give")
        return client, bad

    def test_every_bad_server_is_refused_and_the_good_one_serves(self):
        for behaviour in list(BAD) + list(SLOW):
            with self.subTest(behaviour=behaviour):
                client, bad = self.take_through(behaviour)
                if behaviour != "redirect":
                    refused = sum(n for (url, _), n in client.bad_answers().items() if url == bad.url)
                    self.assertGreater(refused, 0, "no bad answer counted")

    def test_a_server_replaying_what_another_gave_is_refused(self):
        source = Good(start=1)
        good = FakeServer(source)
        replaying = FakeServer("replay", source=source)
        client = LeafClient([good.url, replaying.url], request_timeout=0.5, max_wait=1, log=quiet)
        buffer = client.snowflake("k")
        issued = [buffer.next_id() for _ in range(3000)]
        good.close()
        with self.assertRaises(LeafUnavailableError):
            while True:
                issued.append(buffer.next_id())
        replaying.close()
        self.assertEqual(len(set(issued)), len(issued))
        self.assertTrue(any(url == replaying.url for url, _ in client.bad_answers()))


    def test_a_shard_server_answering_another_shard_every_other_time_is_refused(self):
        good_source = GoodShard(app=1, shard=java_shard(GATE_PASS))
        bad = FakeServer(AlternatingShard(good_source))
        good = FakeServer(good_source)
        client = LeafClient([bad.url, good.url], request_timeout=0.5, max_wait=5, log=quiet)
        issued = client.shard(1, GATE_PASS).next_ids(3000)
        bad.close()
        good.close()
        self.assertEqual(len(set(issued)), 3000)
        self.assertTrue(all(good_source.ours(value) for value in issued), "an ID of another shard")
        self.assertTrue(any(check == "shard" for (url, check) in client.bad_answers() if url == bad.url))

    def test_a_format_string_with_a_wrong_check_character_is_refused(self):
        good_source = GoodFormat()
        bad = FakeServer(GoodFormat(start=500_000, wrong_check=True))
        good = FakeServer(good_source)
        client = LeafClient([bad.url, good.url], request_timeout=0.5, max_wait=5, log=quiet)
        strings = client.format("o").next(500)
        bad.close()
        good.close()
        self.assertEqual(len(set(strings)), 500)
        self.assertTrue(all(good_source.issued(value) for value in strings))
        self.assertTrue(any(check == "format" for (url, check) in client.bad_answers() if url == bad.url))

    def test_a_server_with_another_pattern_for_the_format_is_refused(self):
        """Two servers configured with two patterns for one format: the client keeps to the first
        pattern it accepted, so strings of the other never reach the application."""
        good_source = GoodFormat()
        good = FakeServer(good_source)
        other = FakeServer(OtherPattern())
        client = LeafClient([good.url, other.url], request_timeout=0.5, max_wait=1, log=quiet)
        strings = client.format("o").next(100)
        good.close()
        with self.assertRaises(LeafUnavailableError):
            strings.extend(client.format("o").next(100))
        other.close()
        self.assertTrue(all(good_source.issued(value) for value in strings))
        self.assertIn((other.url, "pattern"), client.bad_answers())


class OtherPattern:
    """A format's server configured with another pattern (each of its strings right for it)."""

    def answer(self, count, accept):
        body = "".join(f"X{n:06d}\n" for n in range(1, count + 1)).encode()
        return 200, {"Content-Type": "text/plain", "Leaf-Format": "X{seq:6}"}, body


GATE_PASS = "alice@example.com"


if __name__ == "__main__":
    unittest.main()
