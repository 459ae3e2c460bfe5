package org.leafid.server.admin;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One address or a CIDR block ({@code 10.0.0.7}, {@code 10.0.0.0/8}, {@code fd00::/8}), as
 * {@code leaf.admin.trusted-proxies} lists them. Only literals are read: nothing here looks a name
 * up in DNS, so neither the configuration nor a forwarded header can make the server resolve one.
 *
 * @param network the block's first address, in network byte order (4 or 16 bytes)
 * @param prefixLength how many leading bits an address must share with {@code network}
 */
record AddressRange(byte[] network, int prefixLength) {

    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

    /**
     * @throws IllegalArgumentException naming what is wrong with {@code text}
     */
    static AddressRange parse(String text) {
        String trimmed = text.strip();
        int slash = trimmed.indexOf('/');
        String address = slash < 0 ? trimmed : trimmed.substring(0, slash);
        byte[] bytes = literal(address).orElseThrow(() -> new IllegalArgumentException("'" + text
                + "' is not an IP address or CIDR block (such as 10.0.0.7, 10.0.0.0/8 or fd00::/8); names are not "
                + "looked up"));
        int bits = bytes.length * 8;
        int prefix = bits;
        if (slash >= 0) {
            String length = trimmed.substring(slash + 1);
            if (!length.matches("\\d{1,3}") || Integer.parseInt(length) > bits) {
                throw new IllegalArgumentException("'" + text + "' has a prefix length outside 0.." + bits);
            }
            prefix = Integer.parseInt(length);
        }
        return new AddressRange(masked(bytes, prefix), prefix);
    }

    /** The bytes of an IP literal, or empty when {@code text} is none (a name is never resolved). */
    static Optional<byte[]> literal(String text) {
        String candidate = text.strip();
        if (candidate.startsWith("[") && candidate.endsWith("]")) {
            candidate = candidate.substring(1, candidate.length() - 1);
        }
        boolean ipv4 = IPV4.matcher(candidate).matches();
        boolean ipv6 = candidate.indexOf(':') >= 0 && candidate.chars().allMatch(c -> Character.digit(c, 16) >= 0
                || c == ':' || c == '.');
        if (!ipv4 && !ipv6) {
            return Optional.empty();
        }
        try {
            // A literal (checked above) is parsed, never looked up.
            return Optional.of(InetAddress.getByName(candidate).getAddress());
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }

    boolean contains(byte[] address) {
        if (address.length != network.length) {
            return false;
        }
        return Arrays.equals(masked(address, prefixLength), network);
    }

    private static byte[] masked(byte[] address, int prefix) {
        byte[] out = address.clone();
        for (int i = 0; i < out.length; i++) {
            int keep = Math.max(0, Math.min(8, prefix - i * 8));
            out[i] = (byte) (out[i] & (0xff << (8 - keep)));
        }
        return out;
    }
}
