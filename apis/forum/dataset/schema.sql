-- The forum schema of the paper's appendix A (MySQL/InnoDB), owned by the harness:
-- implementations never create or alter tables. Secondary keys on the foreign ids,
-- no foreign-key constraints (the paper declared none).
DROP TABLE IF EXISTS `comment`, `thread`, `category`, `user`;

CREATE TABLE `user` (
  `user_id` int NOT NULL AUTO_INCREMENT,
  `name` varchar(255) NOT NULL,
  `email` varchar(255) NOT NULL,
  `phone` varchar(255) NOT NULL,
  `datemade` date DEFAULT NULL,
  `datelastupdated` date DEFAULT NULL,
  PRIMARY KEY (`user_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

CREATE TABLE `category` (
  `category_id` int NOT NULL AUTO_INCREMENT,
  `name` varchar(255) NOT NULL,
  `description` varchar(255) NOT NULL,
  `datemade` date DEFAULT NULL,
  `datelastupdated` date DEFAULT NULL,
  PRIMARY KEY (`category_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

CREATE TABLE `thread` (
  `thread_id` int NOT NULL AUTO_INCREMENT,
  `category_id` int NOT NULL,
  `user_id` int NOT NULL,
  `title` varchar(255) NOT NULL,
  `body` varchar(255) NOT NULL,
  `datemade` date DEFAULT NULL,
  `datelastupdated` date DEFAULT NULL,
  PRIMARY KEY (`thread_id`),
  KEY `category_id_fk` (`category_id`),
  KEY `user_id_fk` (`user_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

CREATE TABLE `comment` (
  `comment_id` int NOT NULL AUTO_INCREMENT,
  `thread_id` int NOT NULL,
  `user_id` int NOT NULL,
  `body` varchar(255) NOT NULL,
  `datemade` date DEFAULT NULL,
  `datelastupdated` date DEFAULT NULL,
  PRIMARY KEY (`comment_id`),
  KEY `thread_id_fk` (`thread_id`),
  KEY `user_id_fk` (`user_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
