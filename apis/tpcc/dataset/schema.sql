-- The nine TPC-C tables (TPC-C Standard Specification 5.11, clause 1.3) with their
-- primary keys, and the two secondary indexes TPC-C drivers use: customers by last name
-- (payment and order-status by name) and orders by customer (order-status's last order).
-- Column names and types are the spec's, as go-tpc and tpcc-mysql spell them. No foreign
-- keys. The history table has no key in TPC-C; InnoDB gets an auto-increment one.
-- Every value is ASCII (TPC-C's alphanumeric strings); the binary collation makes ORDER BY
-- c_first byte order, which every language reproduces (a case-insensitive collation would not).
DROP TABLE IF EXISTS `warehouse`, `district`, `customer`, `history`, `new_order`, `orders`, `order_line`, `item`, `stock`;

CREATE TABLE `warehouse` (
  `w_id` int NOT NULL,
  `w_name` varchar(10) NOT NULL,
  `w_street_1` varchar(20) NOT NULL,
  `w_street_2` varchar(20) NOT NULL,
  `w_city` varchar(20) NOT NULL,
  `w_state` char(2) NOT NULL,
  `w_zip` char(9) NOT NULL,
  `w_tax` decimal(4,4) NOT NULL,
  `w_ytd` decimal(12,2) NOT NULL,
  PRIMARY KEY (`w_id`)
) ENGINE=InnoDB DEFAULT CHARSET=ascii COLLATE=ascii_bin;

CREATE TABLE `district` (
  `d_id` int NOT NULL,
  `d_w_id` int NOT NULL,
  `d_name` varchar(10) NOT NULL,
  `d_street_1` varchar(20) NOT NULL,
  `d_street_2` varchar(20) NOT NULL,
  `d_city` varchar(20) NOT NULL,
  `d_state` char(2) NOT NULL,
  `d_zip` char(9) NOT NULL,
  `d_tax` decimal(4,4) NOT NULL,
  `d_ytd` decimal(12,2) NOT NULL,
  `d_next_o_id` int NOT NULL,
  PRIMARY KEY (`d_w_id`, `d_id`)
) ENGINE=InnoDB DEFAULT CHARSET=ascii COLLATE=ascii_bin;

CREATE TABLE `customer` (
  `c_id` int NOT NULL,
  `c_d_id` int NOT NULL,
  `c_w_id` int NOT NULL,
  `c_first` varchar(16) NOT NULL,
  `c_middle` char(2) NOT NULL,
  `c_last` varchar(16) NOT NULL,
  `c_street_1` varchar(20) NOT NULL,
  `c_street_2` varchar(20) NOT NULL,
  `c_city` varchar(20) NOT NULL,
  `c_state` char(2) NOT NULL,
  `c_zip` char(9) NOT NULL,
  `c_phone` char(16) NOT NULL,
  `c_since` datetime NOT NULL,
  `c_credit` char(2) NOT NULL,
  `c_credit_lim` decimal(12,2) NOT NULL,
  `c_discount` decimal(4,4) NOT NULL,
  `c_balance` decimal(12,2) NOT NULL,
  `c_ytd_payment` decimal(12,2) NOT NULL,
  `c_payment_cnt` int NOT NULL,
  `c_delivery_cnt` int NOT NULL,
  `c_data` varchar(500) NOT NULL,
  PRIMARY KEY (`c_w_id`, `c_d_id`, `c_id`),
  KEY `idx_customer` (`c_w_id`, `c_d_id`, `c_last`, `c_first`)
) ENGINE=InnoDB DEFAULT CHARSET=ascii COLLATE=ascii_bin;

CREATE TABLE `history` (
  `h_id` bigint NOT NULL AUTO_INCREMENT,
  `h_c_id` int NOT NULL,
  `h_c_d_id` int NOT NULL,
  `h_c_w_id` int NOT NULL,
  `h_d_id` int NOT NULL,
  `h_w_id` int NOT NULL,
  `h_date` datetime NOT NULL,
  `h_amount` decimal(6,2) NOT NULL,
  `h_data` varchar(24) NOT NULL,
  PRIMARY KEY (`h_id`)
) ENGINE=InnoDB DEFAULT CHARSET=ascii COLLATE=ascii_bin;

CREATE TABLE `new_order` (
  `no_o_id` int NOT NULL,
  `no_d_id` int NOT NULL,
  `no_w_id` int NOT NULL,
  PRIMARY KEY (`no_w_id`, `no_d_id`, `no_o_id`)
) ENGINE=InnoDB DEFAULT CHARSET=ascii COLLATE=ascii_bin;

CREATE TABLE `orders` (
  `o_id` int NOT NULL,
  `o_d_id` int NOT NULL,
  `o_w_id` int NOT NULL,
  `o_c_id` int NOT NULL,
  `o_entry_d` datetime NOT NULL,
  `o_carrier_id` int DEFAULT NULL,
  `o_ol_cnt` int NOT NULL,
  `o_all_local` int NOT NULL,
  PRIMARY KEY (`o_w_id`, `o_d_id`, `o_id`),
  KEY `idx_orders` (`o_w_id`, `o_d_id`, `o_c_id`, `o_id`)
) ENGINE=InnoDB DEFAULT CHARSET=ascii COLLATE=ascii_bin;

CREATE TABLE `order_line` (
  `ol_o_id` int NOT NULL,
  `ol_d_id` int NOT NULL,
  `ol_w_id` int NOT NULL,
  `ol_number` int NOT NULL,
  `ol_i_id` int NOT NULL,
  `ol_supply_w_id` int NOT NULL,
  `ol_delivery_d` datetime DEFAULT NULL,
  `ol_quantity` int NOT NULL,
  `ol_amount` decimal(6,2) NOT NULL,
  `ol_dist_info` char(24) NOT NULL,
  PRIMARY KEY (`ol_w_id`, `ol_d_id`, `ol_o_id`, `ol_number`)
) ENGINE=InnoDB DEFAULT CHARSET=ascii COLLATE=ascii_bin;

CREATE TABLE `item` (
  `i_id` int NOT NULL,
  `i_im_id` int NOT NULL,
  `i_name` varchar(24) NOT NULL,
  `i_price` decimal(5,2) NOT NULL,
  `i_data` varchar(50) NOT NULL,
  PRIMARY KEY (`i_id`)
) ENGINE=InnoDB DEFAULT CHARSET=ascii COLLATE=ascii_bin;

CREATE TABLE `stock` (
  `s_i_id` int NOT NULL,
  `s_w_id` int NOT NULL,
  `s_quantity` int NOT NULL,
  `s_dist_01` char(24) NOT NULL,
  `s_dist_02` char(24) NOT NULL,
  `s_dist_03` char(24) NOT NULL,
  `s_dist_04` char(24) NOT NULL,
  `s_dist_05` char(24) NOT NULL,
  `s_dist_06` char(24) NOT NULL,
  `s_dist_07` char(24) NOT NULL,
  `s_dist_08` char(24) NOT NULL,
  `s_dist_09` char(24) NOT NULL,
  `s_dist_10` char(24) NOT NULL,
  `s_ytd` int NOT NULL,
  `s_order_cnt` int NOT NULL,
  `s_remote_cnt` int NOT NULL,
  `s_data` varchar(50) NOT NULL,
  PRIMARY KEY (`s_w_id`, `s_i_id`)
) ENGINE=InnoDB DEFAULT CHARSET=ascii COLLATE=ascii_bin;
