package org.leafid.jdbc.stores;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.ibatis.exceptions.PersistenceException;
import org.apache.ibatis.session.SqlSession;
import org.apache.ibatis.session.SqlSessionFactory;
import org.leafid.core.Sleeper;
import org.leafid.core.segment.SegmentStoreException;
import org.leafid.jdbc.SqlFailures;
import org.leafid.jdbc.SqlRetry;
import org.leafid.jdbc.segment.LeafAllocMapper;
import org.leafid.jdbc.segment.LeafAllocMapper.TagRow;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fleet of several stores as this server sees it: the check that the stores it is configured
 * with are the ones they recorded ({@link FleetRecord}: in the same places, none listed twice, none
 * a copy of another or a new database in place of one, with the same stripe width, the members of
 * the fleet's numbering listed as members), made at start on every store that answers and on each
 * other one before its first block; the numbering the stores serve, followed when another server
 * renumbers; and the renumbering itself, which adds and retires stores ({@link #renumber}).
 */
public final class StoreFleet {

    private static final Logger log = LoggerFactory.getLogger(StoreFleet.class);

    private final List<Member> members;
    private final long width;
    /** Every store's token as this server learned it, from the store's own record or the others'. */
    private final Map<Integer, Long> tokens = new ConcurrentHashMap<>();
    private final Set<Integer> checked = ConcurrentHashMap.newKeySet();
    private volatile Numbering current;
    /** Whether {@link #current} was read from a store, rather than made from the configuration of a new fleet. */
    private boolean recorded;

    /**
     * One configured store.
     *
     * @param where the store's url as messages show it (without password)
     */
    public record Member(SqlSessionFactory sessions, int place, StoreState state, String where) {

        String key() {
            return "leaf.jdbc.stores[" + place + "].url";
        }
    }

    /** A store that is not the one the fleet recorded at its place: nothing is reserved from it. */
    public static final class MismatchException extends IllegalStateException {

        private final String key;

        MismatchException(String key, String reason) {
            super(reason);
            this.key = key;
        }

        /** The configuration key to look at. */
        public String key() {
            return key;
        }
    }

    /** A renumbering that could not be made: nothing changed, or run it again to finish it. */
    public static final class RenumberingRefused extends IllegalStateException {

        public RenumberingRefused(String reason, Throwable cause) {
            super(reason, cause);
        }
    }

    /** Reads and writes of the fleet's record that the database answers "try again" are tried again. */
    private final SqlRetry retry;

    /** @param width {@code leaf.jdbc.stripe-width}, which every store records */
    public StoreFleet(List<Member> members, long width) {
        this.retry = new SqlRetry("leaf_high_water", Sleeper.system());
        this.members = List.copyOf(members);
        this.width = width;
        long configured = Numbering.maskOf(members.stream().filter(m -> m.state() == StoreState.MEMBER)
                .map(Member::place).toList());
        this.current = new Numbering(0, 0, width, configured);
    }

    /** The numbering of the highest generation this server has seen. */
    public Numbering current() {
        return current;
    }

    /**
     * Checks every store that answers now; one that does not is checked before its first block.
     *
     * @throws MismatchException naming the key of the first store that is not the fleet's
     */
    public void checkAtStart() {
        Map<Integer, FleetRecord.Read> records = new HashMap<>();
        for (Member member : members) {
            if (member.state() == StoreState.RETIRED) {
                continue;
            }
            try {
                FleetRecord.Read record = retry.run(() -> FleetRecord.read(member.sessions()));
                records.put(member.place(), record);
                learn(record, member);
            } catch (PersistenceException e) {
                log.warn("Store {} ({}) does not answer at start: {}. It is checked against the fleet's record"
                        + " before its first block", member.key(), member.where(), SqlFailures.describe(e,
                                member.where()));
            }
        }
        checkMembersListed();
        for (Member member : members) {
            if (records.containsKey(member.place())) {
                checkStore(member.place());
            }
        }
    }

    /** Every member of the numbering is listed as one, and every store listed as a member is one. */
    private void checkMembersListed() {
        Numbering numbering = current;
        for (int place : numbering.places()) {
            if (place >= members.size() || members.get(place).state() == StoreState.RETIRED) {
                throw new MismatchException("leaf.jdbc.stores", "leaf.jdbc.stores lists " + members.size()
                        + " stores" + (place < members.size() ? " with store " + place + " retired" : "") + ", but the"
                        + " fleet's numbering " + numbering.generation() + " has store " + place + " as a member: list"
                        + " every store of the fleet, in the order they were first listed");
            }
        }
        for (Member member : members) {
            if (member.state() == StoreState.MEMBER && !numbering.member(member.place())) {
                throw new MismatchException(member.key(), member.key() + " is listed as a member, but the fleet's"
                        + " numbering " + numbering.generation() + " has stores " + numbering.places() + ": to add it,"
                        + " set leaf.jdbc.stores[" + member.place() + "].state=joining and renumber; if it was"
                        + " retired, set its state to retired");
            }
        }
    }

    /**
     * Checks store {@code place} once: its record against the configuration and what the others
     * recorded of it; a member store with none, that no other names, joins the fleet.
     *
     * @throws MismatchException when it is not the fleet's store at its place
     * @throws SegmentStoreException when it cannot be read
     */
    public void checkStore(int place) {
        if (checked.contains(place)) {
            return;
        }
        Member member = members.get(place);
        synchronized (member) {
            if (checked.contains(place)) {
                return;
            }
            try {
                // Servers starting together write the same store's record at once: InnoDB may answer
                // one of them with a deadlock, which is "try again", never a reason to refuse the start.
                retry.run(() -> checkStoreOnce(member, place));
                checked.add(place);
            } catch (PersistenceException e) {
                throw new SegmentStoreException(null, "the fleet's record in " + member.key() + " could not be read: "
                        + SqlFailures.describe(e, member.where()), e);
            }
        }
    }

    /** One attempt of {@link #checkStore}; the record it read (a joining store's stays empty until renumbered). */
    private FleetRecord.Read checkStoreOnce(Member member, int place) {
        FleetRecord.Read record = FleetRecord.read(member.sessions());
        if (record.empty()) {
            if (member.state() == StoreState.JOINING) {
                return record; // recorded when a renumbering makes it a member
            }
            refuseNewInPlaceOfKnown(member);
            if (!FleetRecord.create(member.sessions(), place, current)) {
                log.debug("Store {} joined the fleet by another server at the same moment", member.key());
            }
            record = FleetRecord.read(member.sessions());
            log.info("Store {} ({}) joined the fleet as store {} of numbering {}", member.key(),
                    member.where(), place, record.numbering());
        }
        verify(member, record);
        learn(record, member);
        for (Map.Entry<Integer, Long> other : tokens.entrySet()) {
            if (other.getKey() != place && !other.getValue().equals(record.others().get(other.getKey()))) {
                FleetRecord.recordOther(member.sessions(), other.getKey(), other.getValue());
            }
        }
        return record;
    }

    /** Reads store {@code place}'s numbering again, after it answered with a newer one. */
    public void reload(int place) {
        Member member = members.get(place);
        try {
            learn(FleetRecord.read(member.sessions()), member);
        } catch (PersistenceException e) {
            throw new SegmentStoreException(null, "the fleet's record in " + member.key() + " could not be read: "
                    + SqlFailures.describe(e, member.where()), e);
        }
    }

    private void refuseNewInPlaceOfKnown(Member member) {
        if (tokens.containsKey(member.place())) {
            throw new MismatchException(member.key(), member.key() + " (" + member.where() + ") has no record of the"
                    + " fleet, while another store recorded one for store " + member.place() + ": a new or emptied"
                    + " database in place of that store, which may lack the numbers it gave. Nothing is reserved"
                    + " from it; point the url back at the store, or retire it and add a new one"
                    + " (docs/databases.md, \"Several stores\")");
        }
    }

    private void verify(Member member, FleetRecord.Read record) {
        int place = member.place();
        if (record.place() == null || record.place() != place) {
            throw new MismatchException(member.key(), member.key() + " (" + member.where() + ") reaches the database"
                    + " recorded as store " + record.place() + ": the stores are listed in another order, one is listed"
                    + " twice, or it is a copy of store " + record.place() + ". List them in the order they were"
                    + " first listed");
        }
        if (record.width() == null || record.width() != width) {
            throw new MismatchException("leaf.jdbc.stripe-width", "leaf.jdbc.stripe-width is " + width + ", but "
                    + member.key() + " recorded stripes of " + record.width() + ": every server of the fleet needs the"
                    + " same stripe width");
        }
        Long known = tokens.get(place);
        if (known != null && !known.equals(record.token())) {
            throw new MismatchException(member.key(), member.key() + " (" + member.where() + ") is not the database the"
                    + " other stores recorded as store " + place + " (another token): a new database set up in its"
                    + " place, or a store of another fleet. Nothing is reserved from it");
        }
        for (Map.Entry<Integer, Long> other : tokens.entrySet()) {
            if (other.getKey() != place && other.getValue().equals(record.token())) {
                throw new MismatchException(member.key(), member.key() + " and leaf.jdbc.stores[" + other.getKey()
                        + "].url reach the same store, or one is a copy of the other: nothing is reserved from "
                        + member.key());
            }
        }
    }

    /**
     * What a store's record says: its own token when it is at its place, the others' tokens, and its
     * numbering when newer than the one this server follows.
     */
    private void learn(FleetRecord.Read record, Member member) {
        if (record.token() != null && record.place() != null && record.place() == member.place()) {
            tokens.putIfAbsent(member.place(), record.token());
        }
        record.others().forEach(tokens::putIfAbsent);
        follow(record.numbering());
    }

    private synchronized void follow(Numbering seen) {
        if (seen == null) {
            return;
        }
        if (!recorded) {
            // The stores' record, not this server's configuration, says which numbering they serve.
            current = seen;
            recorded = true;
        } else if (seen.generation() > current.generation()) {
            log.info("The stores serve numbering {} from now on: stores {} share the numbers from {} in stripes"
                    + " of {}", seen.generation(), seen.places(), seen.base(), seen.width());
            current = seen;
        }
    }

    /**
     * Adds the stores listed as joining and retires {@code retire}: every store is frozen (its
     * reservations wait a moment), the highest number any of them reached is read, and a numbering of
     * the next generation is recorded in each, from a base above that number; the joining stores get
     * the tags' rows first. Stops at the first store that does not answer: run it again to finish.
     *
     * @param retire the places of member stores to retire
     * @return the new numbering
     * @throws RenumberingRefused when a store does not answer, or the request names no member
     */
    public synchronized Numbering renumber(Set<Integer> retire) {
        Numbering newest = current;
        Map<Integer, FleetRecord.Read> records = new HashMap<>();
        List<Member> joining = new ArrayList<>();
        for (Member member : members) {
            if (member.state() == StoreState.RETIRED) {
                continue;
            }
            FleetRecord.Read record = readForRenumbering(member);
            records.put(member.place(), record);
            if (record.numbering() != null && record.numbering().generation() > newest.generation()) {
                newest = record.numbering();
            }
            if (member.state() == StoreState.JOINING && (record.numbering() == null
                    || !record.numbering().member(member.place()))) {
                joining.add(member);
            }
        }
        Set<Integer> next = new TreeSet<>(newest.places());
        for (int place : retire) {
            if (!next.contains(place)) {
                throw new RenumberingRefused("store " + place + " is not a member of numbering "
                        + newest.generation() + " (members: " + newest.places() + ")", null);
            }
            next.remove(place);
        }
        joining.forEach(member -> next.add(member.place()));
        if (next.isEmpty()) {
            throw new RenumberingRefused("retiring " + retire + " would leave no store", null);
        }
        Set<Integer> recorded = new HashSet<>();
        records.forEach((place, record) -> {
            if (!record.empty()) {
                recorded.add(place);
            }
        });
        long highest = 0;
        for (int place : new TreeSet<>(recorded)) {
            Member member = members.get(place);
            try {
                FleetRecord.freeze(member.sessions());
                highest = Math.max(highest, FleetRecord.highestNumber(member.sessions()));
            } catch (PersistenceException e) {
                throw refused(member, e);
            }
        }
        long base = Math.max(newest.base(), Math.addExact(Math.multiplyExact(Math.floorDiv(highest, width), width),
                width));
        Numbering numbering = new Numbering(newest.generation() + 1, base, width, Numbering.maskOf(next));
        for (Member member : joining) {
            try {
                addTags(member, base);
                if (records.get(member.place()).empty()) {
                    FleetRecord.create(member.sessions(), member.place(), numbering);
                    recorded.add(member.place());
                }
            } catch (PersistenceException e) {
                throw refused(member, e);
            }
        }
        for (int place : new TreeSet<>(recorded)) {
            Member member = members.get(place);
            try {
                FleetRecord.serve(member.sessions(), numbering);
            } catch (PersistenceException e) {
                throw refused(member, e);
            }
        }
        checked.removeAll(joining.stream().map(Member::place).toList());
        follow(numbering);
        log.warn("Renumbered the stores: numbering {} has stores {} (retired: {}, added: {}), from {} above every"
                + " number reserved before ({})", numbering.generation(), numbering.places(), retire,
                joining.stream().map(Member::place).toList(), base, highest);
        return numbering;
    }

    private FleetRecord.Read readForRenumbering(Member member) {
        try {
            return FleetRecord.read(member.sessions());
        } catch (PersistenceException e) {
            throw refused(member, e);
        }
    }

    /** The tags of the first member that answers, created in a joining store from {@code base}. */
    private void addTags(Member joining, long base) {
        List<TagRow> rows = null;
        for (int place : current.places()) {
            try (SqlSession session = members.get(place).sessions().openSession(true)) {
                rows = session.getMapper(LeafAllocMapper.class).rows();
                break;
            } catch (PersistenceException unreachable) {
                log.debug("Tags not read from store {}: {}", place, unreachable.toString());
            }
        }
        if (rows == null) {
            throw new RenumberingRefused("no member store answered with its tags", null);
        }
        try (SqlSession session = joining.sessions().openSession(false)) {
            LeafAllocMapper mapper = session.getMapper(LeafAllocMapper.class);
            for (TagRow row : rows) {
                if (mapper.row(row.tag()) == null) {
                    mapper.insert(row.tag(), base, row.step(), row.description());
                }
            }
            session.commit();
        }
    }

    private static RenumberingRefused refused(Member member, PersistenceException e) {
        return new RenumberingRefused(member.key() + " (" + member.where() + ") does not answer: "
                + SqlFailures.describe(e, member.where()) + ". A renumbering needs every listed store; the stores"
                + " already frozen stay frozen until it is run again", e);
    }
}
